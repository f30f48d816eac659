-- Neovim's built-in LSP client for the `sources` language server (`sources lsp`).
--
--   require("sources").setup()            -- plain client: vim.lsp.start, or start_client on 0.7
--   require("sources").lspconfig()        -- through nvim-lspconfig
--
-- Both start the server for YAML and TOML buffers; the server ignores files without a
-- `data.sources` block.

local M = {}

--- The defaults every entry point starts from.
M.defaults = {
  name = "sources",
  cmd = { "sources", "lsp" },
  filetypes = { "yaml", "toml" },
  root_markers = { ".git" },
}

local function options(opts)
  return vim.tbl_deep_extend("force", {}, M.defaults, opts or {})
end

--- The directory holding the nearest root marker above the buffer's file, else the file's directory.
local function root_dir(bufnr, markers)
  local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ":p:h")
  for _, marker in ipairs(markers) do
    local found = vim.fn.finddir(marker, dir .. ";")
    if found == "" then
      found = vim.fn.findfile(marker, dir .. ";")
    end
    if found ~= "" then
      return vim.fn.fnamemodify(vim.fn.fnamemodify(found, ":p"):gsub("/$", ""), ":h")
    end
  end
  return dir
end

-- Neovim 0.7 has no vim.lsp.start: one client per root directory, reused across buffers.
local started = {}

--- Starts (or reuses) the client for `bufnr` and attaches it; returns the client id.
function M.start(bufnr, opts)
  opts = options(opts)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local config = {
    name = opts.name,
    cmd = opts.cmd,
    root_dir = root_dir(bufnr, opts.root_markers),
    capabilities = opts.capabilities,
    on_attach = opts.on_attach,
    settings = opts.settings,
  }
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = started[config.root_dir]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(config)
    started[config.root_dir] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- Starts the server for every buffer of the configured filetypes.
function M.setup(opts)
  opts = options(opts)
  local group = vim.api.nvim_create_augroup("sources_lsp", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = opts.filetypes,
    callback = function(args)
      M.start(args.buf, opts)
    end,
  })
end

--- Registers `sources` with nvim-lspconfig (if it is not already known) and sets it up.
function M.lspconfig(opts)
  opts = options(opts)
  local configs = require("lspconfig.configs")
  local util = require("lspconfig.util")
  if not configs.sources then
    configs.sources = {
      default_config = {
        cmd = opts.cmd,
        filetypes = opts.filetypes,
        root_dir = util.root_pattern(unpack(opts.root_markers)),
        single_file_support = true,
      },
      docs = {
        description = "Language server for the data.sources block of terminal-UI configuration files (`sources lsp`).",
      },
    }
  end
  require("lspconfig").sources.setup({
    cmd = opts.cmd,
    filetypes = opts.filetypes,
    capabilities = opts.capabilities,
    on_attach = opts.on_attach,
  })
end

return M
