-- End-to-end test with a real client: Neovim's built-in LSP client, configured by
-- editors/neovim/lua/sources, drives the built `sources lsp` (path in $SOURCES_BIN) over a config
-- with mistakes: diagnostics at the right positions (after non-ASCII text), hover, definition,
-- semantic tokens over a CEL expression, inlay hints, each diagnostic listed once, and a quick fix
-- applied to the buffer.
--
--   SOURCES_BIN=target/debug/sources nvim --headless --clean -u NONE -c "luafile editors/neovim/test/e2e.lua"
--
-- With SOURCES_E2E_SECOND_CLIENT=1 a second client of the same server is attached to the buffer,
-- so every diagnostic is delivered twice: the negative control of the "once" check, which must
-- then fail (scripts/test runs it).

local failures = {}

local function check(condition, message)
  if not condition then
    table.insert(failures, message)
  end
  return condition
end

local function finish()
  if #failures > 0 then
    for _, failure in ipairs(failures) do
      io.stderr:write("FAIL: " .. failure .. "\n")
    end
    vim.cmd("cquit 1")
  else
    io.stdout:write("ok: neovim end-to-end (diagnostics, each once, hover, definition, completion, semantic tokens, inlay hints, quick fix)\n")
    vim.cmd("qall!")
  end
end

--- The mistakes of fixture.yaml: `urll` and `appz`, one diagnostic each.
local EXPECTED_DIAGNOSTICS = 2

local here = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h")
local bin = os.getenv("SOURCES_BIN")

--- The 0-based line and byte column of the first occurrence of `needle` in the buffer.
local function find(bufnr, needle)
  for index, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local column = line:find(needle, 1, true)
    if column then
      return index - 1, column - 1, line
    end
  end
  error("`" .. needle .. "` is not in the buffer")
end

local function diagnostic(bufnr, code)
  for _, found in ipairs(vim.diagnostic.get(bufnr)) do
    if found.code == code or (found.user_data and found.user_data.lsp and found.user_data.lsp.code == code) then
      return found
    end
  end
end

--- A position request at the first occurrence of `needle` (plus `shift` bytes).
local function request(bufnr, method, needle, shift, extra)
  local line, column, text = find(bufnr, needle)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = line, character = vim.str_utfindex(text, column + shift) },
  }
  for key, value in pairs(extra or {}) do
    params[key] = value
  end
  local responses = vim.lsp.buf_request_sync(bufnr, method, params, 10000) or {}
  for _, response in pairs(responses) do
    check(response.err == nil, method .. " failed: " .. vim.inspect(response.err))
    return response.result
  end
end

local function main()
  assert(bin and bin ~= "", "set SOURCES_BIN to the built sources binary")
  vim.opt.runtimepath:prepend(vim.fn.fnamemodify(here, ":h"))
  vim.cmd("filetype on")

  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, "p")
  local path = dir .. "/config.yaml"
  vim.fn.writefile(vim.fn.readfile(here .. "/fixture.yaml"), path)

  require("sources").setup({ cmd = { bin, "lsp" } })
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  check(vim.bo[bufnr].filetype == "yaml", "the fixture is a yaml buffer")

  -- Diagnostics, at the right places.
  local arrived = vim.wait(15000, function()
    return diagnostic(bufnr, "unknown-source") ~= nil and diagnostic(bufnr, "unknown-field") ~= nil
  end, 50)
  if not check(arrived, "diagnostics arrive: " .. vim.inspect(vim.diagnostic.get(bufnr))) then
    return
  end
  local second = os.getenv("SOURCES_E2E_SECOND_CLIENT") == "1"
  if second then
    local id = vim.lsp.start_client({ name = "sources-second", cmd = { bin, "lsp" }, root_dir = dir })
    vim.lsp.buf_attach_client(bufnr, id)
  end
  local clients = vim.lsp.buf_get_clients(bufnr)
  local client = clients[next(clients)]
  check(client and client.offset_encoding == "utf-16", "the client counts in UTF-16")

  local unknown = diagnostic(bufnr, "unknown-source")
  local line, column = find(bufnr, "appz")
  check(unknown.lnum == line and unknown.col == column and unknown.end_col == column + 4,
    ("unknown-source at %d:%d-%d, expected %d:%d-%d (after ☕café😀)"):format(
      unknown.lnum, unknown.col, unknown.end_col, line, column, column + 4))
  check(unknown.message:find("appz", 1, true) ~= nil, "the message names `appz`: " .. unknown.message)
  local description = unknown.user_data and unknown.user_data.lsp and unknown.user_data.lsp.codeDescription
  check(description and description.href:find("#unknown%-source$") ~= nil, "a code description links the rule")

  local field = diagnostic(bufnr, "unknown-field")
  line, column = find(bufnr, "urll")
  check(field.lnum == line and field.col == column, "unknown-field points at `urll`")

  -- Hover on a source reference: the target's kind and cadence.
  local hover = request(bufnr, "textDocument/hover", "from: apps", 7)
  local contents = hover and hover.contents and hover.contents.value or ""
  check(contents:find("`http`, polled every `30s`", 1, true) ~= nil, "hover describes `apps`: " .. contents)

  -- Definition: from the reference to the declaration.
  local location = request(bufnr, "textDocument/definition", "from: apps", 7)
  line = find(bufnr, "    apps:")
  check(location and location.range and location.range.start.line == line and location.range.start.character == 4,
    "definition of `apps` is its key: " .. vim.inspect(location))

  -- Completion where a reference is expected: the other entries' names.
  local completion = request(bufnr, "textDocument/completion", "from: apps", 6)
  local labels = {}
  for _, item in ipairs(completion and completion.items or {}) do
    labels[item.label] = true
  end
  check(labels["apps"] and labels["☕café😀"] and not labels["healthy"],
    "completion offers the other entries: " .. vim.inspect(vim.tbl_keys(labels)))

  -- Semantic tokens: decoded with the legend the server announced, the CEL expression in `where`
  -- and the reference in `from` are marked.
  local legend = client.server_capabilities.semanticTokensProvider
    and client.server_capabilities.semanticTokensProvider.legend
  if check(legend ~= nil, "the server announces semantic tokens") then
    local responses = vim.lsp.buf_request_sync(bufnr, "textDocument/semanticTokens/full",
      { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, 10000) or {}
    local tokens = {}
    for _, response in pairs(responses) do
      local data = response.result and response.result.data or {}
      local token_line, token_start = 0, 0
      for index = 1, #data, 5 do
        if data[index] > 0 then
          token_start = 0
        end
        token_line = token_line + data[index]
        token_start = token_start + data[index + 1]
        local text = vim.api.nvim_buf_get_lines(bufnr, token_line, token_line + 1, false)[1] or ""
        -- Columns are UTF-16 units; the lines checked here are ASCII.
        local word = text:sub(token_start + 1, token_start + data[index + 2])
        tokens[#tokens + 1] = ("%d:%s:%s"):format(token_line, word, legend.tokenTypes[data[index + 3] + 1])
      end
    end
    local where_line = find(bufnr, "where: health")
    local from_line = find(bufnr, "from: apps")
    for _, wanted in ipairs({
      where_line .. ":health:variable",
      where_line .. ":==:operator",
      where_line .. ':"Healthy":string',
      from_line .. ":apps:variable",
    }) do
      check(vim.tbl_contains(tokens, wanted), "semantic token " .. wanted .. " in " .. vim.inspect(tokens))
    end
  end

  -- Inlay hints: the cadence after the entry's name.
  local hint_responses = vim.lsp.buf_request_sync(bufnr, "textDocument/inlayHint", {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = 0, character = 0 }, ["end"] = { line = vim.api.nvim_buf_line_count(bufnr), character = 0 } },
  }, 10000) or {}
  local apps_line = find(bufnr, "    apps:")
  local cadence
  for _, response in pairs(hint_responses) do
    for _, hint in ipairs(response.result or {}) do
      if hint.position.line == apps_line then
        cadence = hint.label
      end
    end
  end
  check(type(cadence) == "string" and cadence:find("polled every 30s", 1, true) ~= nil,
    "an inlay hint says `apps` is polled every 30s: " .. vim.inspect(hint_responses))

  -- Each diagnostic once. By now the server has answered hover, definition, completion, semantic
  -- tokens and inlay hints for this version, so a second delivery would be listed already (with
  -- the second client of the negative control, wait for its delivery).
  if second then
    vim.wait(15000, function()
      return #vim.diagnostic.get(bufnr) > EXPECTED_DIAGNOSTICS
    end, 50)
  end
  local listed, seen, repeated = vim.diagnostic.get(bufnr), {}, {}
  for _, found in ipairs(listed) do
    local key = table.concat({ tostring(found.lnum), tostring(found.col), found.message }, ":")
    if seen[key] then
      table.insert(repeated, key)
    end
    seen[key] = true
  end
  check(#listed == EXPECTED_DIAGNOSTICS and #repeated == 0,
    "each diagnostic once: " .. #listed .. " listed for the file's " .. EXPECTED_DIAGNOSTICS
      .. " mistakes; repeated: " .. vim.inspect(repeated))

  -- Quick fix: rename `urll` to `url`, applied through the client, then the diagnostic goes away.
  line, column = find(bufnr, "urll")
  local actions = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = line, character = column }, ["end"] = { line = line, character = column + 4 } },
    context = { diagnostics = {} },
  }, 10000) or {}
  local fix
  for _, response in pairs(actions) do
    for _, action in ipairs(response.result or {}) do
      if action.title:find("`url`", 1, true) then
        fix = action
      end
    end
  end
  if not check(fix ~= nil, "a quick fix renames `urll`: " .. vim.inspect(actions)) then
    return
  end
  vim.lsp.util.apply_workspace_edit(fix.edit, "utf-16")
  local fixed = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1]
  check(fixed == "      url: https://example.invalid/apps", "the fix edits the buffer: " .. fixed)
  local cleared = vim.wait(15000, function()
    return diagnostic(bufnr, "unknown-field") == nil and diagnostic(bufnr, "unknown-source") ~= nil
  end, 50)
  check(cleared, "after the fix only the other mistakes remain: " .. vim.inspect(vim.diagnostic.get(bufnr)))
end

local ok, error = xpcall(main, debug.traceback)
check(ok, tostring(error))
finish()
