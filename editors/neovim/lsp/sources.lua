-- Neovim 0.11+: with this directory on 'runtimepath', `vim.lsp.enable("sources")` uses this
-- configuration (override any field with `vim.lsp.config("sources", { ... })`).
return {
  cmd = { "sources", "lsp" },
  filetypes = { "yaml", "toml" },
  root_markers = { ".git" },
}
