-- Neovim client for the Copy-as-Decode language server (`copy-as-decode serve`, stdio).
--
--   require("copy_as_decode").setup({
--     cmd = { "/path/to/.venv/bin/copy-as-decode", "serve" },
--     settings = { model = "qwen2.5-coder-1.5b", selector = "auto" },
--   })
--
-- Works on Neovim 0.8+; on 0.11+ it registers through vim.lsp.config / vim.lsp.enable.
local review = require("copy_as_decode.review")
local preview = require("copy_as_decode.preview")

local M = {}

local NAME = "copy_as_decode"
local SERVER_EDIT = "copyAsDecode.edit"
local SERVER_APPLY = "copyAsDecode.apply"
local SERVER_PREPARE = "copyAsDecode.prepare"
local INTERACTIVE = "copyAsDecode.editInteractive"

local has_011 = vim.fn.has("nvim-0.11") == 1

M.config = {
  -- Command line of the server; nil: `copy-as-decode serve` on PATH, else `python3 -m copy_as_decode.cli serve`.
  cmd = nil,
  -- The `copyAsDecode` settings: model, selector, quant, device, dtype, maxNewTokens, timeout, review,
  -- reviewLines, workerCommand; inference ("local" | "remote" | "chat"), endpoint (the inference server's or the
  -- chat API's URL), servedModel (the model the server is asked for), api (nvim/README.md).
  settings = {},
  -- nil: every buffer that holds a file.
  filetypes = nil,
  root_markers = { ".git", "pyproject.toml", "package.json" },
  -- Show the server's progress messages in the message area.
  progress = true,
  -- Keys in the review of a proposed change (buffer-local while it is open); reject_hunk only in a review in
  -- place (the edit's preview was on screen).
  review_keys = { accept_all = "ga", reject_all = "gr", accept_hunk = "gh", reject_hunk = "gH" },
}

-- Requests in flight: request id -> { client = client, bufnr = bufnr }.
local running = {}

local function notify(msg, level)
  vim.notify("Copy-as-Decode: " .. msg, level or vim.log.levels.INFO)
end

local function call(client, method, ...)
  -- 0.11 made client functions methods (client:request); older releases take no self.
  if has_011 then
    return client[method](client, ...)
  end
  return client[method](...)
end

local function default_cmd()
  if vim.fn.executable("copy-as-decode") == 1 then
    return { "copy-as-decode", "serve" }
  end
  return { "python3", "-m", "copy_as_decode.cli", "serve" }
end

local function lsp_config()
  local settings = vim.deepcopy(M.config.settings or {})
  return {
    name = NAME,
    cmd = M.config.cmd or default_cmd(),
    filetypes = M.config.filetypes,
    root_markers = M.config.root_markers,
    -- clientFeatures: the server shows where an edit lands, asks when it is unsure of the place, and streams
    -- the new text (preview.lua).
    init_options = { copyAsDecode = vim.tbl_extend("force", settings, { clientFeatures = preview.features }) },
    settings = { copyAsDecode = settings },
    -- The server sends an edit for review as hunks that need confirmation (change annotations); the
    -- review (review.lua) waits for the user inside the request's coroutine. Tested with 0.11.
    capabilities = has_011 and {
      workspace = { workspaceEdit = { changeAnnotationSupport = { groupsOnLabel = false } } },
    } or nil,
    handlers = {
      ["workspace/applyEdit"] = function(err, params, ctx)
        return review.apply_edit(err, params, ctx, M.config.review_keys)
      end,
      ["copyAsDecode/place"] = preview.on_place,
      ["copyAsDecode/preview"] = preview.on_preview,
      ["copyAsDecode/pick"] = preview.on_pick,
    },
    -- One server (one loaded model) for every buffer, whatever its project root.
    reuse_client = function(client, config)
      return client.name == config.name
    end,
  }
end

local function get_clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = NAME })
  end
  return vim.lsp.get_active_clients({ bufnr = bufnr, name = NAME })
end

local function find_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" then
    return vim.fn.getcwd()
  end
  local found = vim.fs.find(M.config.root_markers, { upward = true, path = vim.fs.dirname(name) })[1]
  return found and vim.fs.dirname(found) or vim.fs.dirname(name)
end

--- Attach the server to `bufnr` (started on first use). Returns the client id or nil.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local attached = get_clients(bufnr)[1]
  if attached then
    return attached.id
  end
  local config = lsp_config()
  if has_011 and vim.lsp.config[NAME] then
    config = vim.tbl_extend("force", vim.lsp.config[NAME], { name = NAME })
  end
  config.root_dir = config.root_dir or find_root(bufnr)
  config.root_markers, config.filetypes = nil, nil
  return vim.lsp.start(config, { bufnr = bufnr, reuse_client = config.reuse_client })
end

--- Wait until the server attached to `bufnr` has initialized; returns the client or nil.
local function ready_client(bufnr, timeout_ms)
  local id = M.attach(bufnr)
  if not id then
    return nil
  end
  local client
  vim.wait(timeout_ms or 30000, function()
    client = vim.lsp.get_client_by_id(id)
    return client == nil or client.initialized == true
  end, 20)
  return client
end

local function to_units(line, byte, encoding)
  if encoding == "utf-8" then
    return byte
  end
  if has_011 then
    return vim.str_utfindex(line, encoding, byte, false)
  end
  local utf32, utf16 = vim.str_utfindex(line, byte)
  return encoding == "utf-16" and utf16 or utf32
end

--- LSP range for lines `line1..line2` (1-based, inclusive) or for the last charwise visual selection.
local function range_params(bufnr, line1, line2, encoding)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local vs, ve = vim.fn.getpos("'<"), vim.fn.getpos("'>")
  if vim.fn.visualmode() == "v" and vs[2] == line1 and ve[2] == line2 then
    local first, last = lines[line1] or "", lines[line2] or ""
    local end_byte = math.min(#last, ve[3] - 1 + #(vim.fn.strcharpart(last:sub(ve[3]), 0, 1)))
    return {
      start = { line = line1 - 1, character = to_units(first, math.min(#first, vs[3] - 1), encoding) },
      ["end"] = { line = line2 - 1, character = to_units(last, end_byte, encoding) },
    }
  end
  if line2 < #lines then
    return { start = { line = line1 - 1, character = 0 }, ["end"] = { line = line2, character = 0 } }
  end
  local last = lines[line2] or ""
  return {
    start = { line = line1 - 1, character = 0 },
    ["end"] = { line = line2 - 1, character = to_units(last, #last, encoding) },
  }
end

--- The cursor ({row, col}: 1-based row, byte column) in the window showing `bufnr`, the current window
--- first; nil when no window shows it.
local function buffer_cursor(bufnr)
  local win = vim.api.nvim_win_get_buf(0) == bufnr and vim.api.nvim_get_current_win() or vim.fn.bufwinid(bufnr)
  return win ~= -1 and vim.api.nvim_win_get_cursor(win) or nil
end

--- `cursor` from buffer_cursor as an LSP position in `encoding`.
local function lsp_position(bufnr, cursor, encoding)
  local line = vim.api.nvim_buf_get_lines(bufnr, cursor[1] - 1, cursor[1], false)[1] or ""
  return { line = cursor[1] - 1, character = to_units(line, math.min(cursor[2], #line), encoding) }
end

local function doc_version(bufnr)
  local v = vim.lsp.util.buf_versions and vim.lsp.util.buf_versions[bufnr]
  return v or vim.b[bufnr].changedtick
end

local function summarize(result)
  if type(result) ~= "table" then
    return nil
  end
  local stats = result.stats or result
  local parts = {}
  -- Which lines the model rewrote ("41-52 (parse_port)"), or why it took the whole file, or where an applied
  -- block went ("replaced `parse_port` (lines 41-52)"): the user sees whether the cursor or the range was
  -- the place they meant.
  if type(stats.windows) == "string" and stats.windows ~= "" then
    table.insert(parts, stats.windows:find("^%d") and ("lines " .. stats.windows) or stats.windows)
  end
  for _, key in ipairs({ "sampled", "spliced", "total_s" }) do
    if type(stats[key]) == "number" then
      table.insert(parts, string.format("%s %s", key, stats[key]))
    end
  end
  -- Completion requests sent to an inference server (the setting inference = "remote").
  if type(stats.requests) == "number" and stats.requests > 0 then
    table.insert(parts, string.format("requests %s", stats.requests))
  end
  return #parts > 0 and table.concat(parts, ", ") or nil
end

--- Send the server's editing command `command` (copyAsDecode.edit or copyAsDecode.apply) with its argument
--- `arg`; the server applies the result through workspace/applyEdit. `on_done(err, result)` runs when the
--- server answers. Returns the request id, or nil when the server is not running.
function M.request(client, bufnr, command, arg, on_done)
  local params = { command = command, arguments = { arg } }
  local what = command == SERVER_APPLY and "apply" or "edit"
  local ok, id
  local function handler(err, result)
    running[id] = nil
    preview.clear(bufnr) -- the edit ended (result, failure or cancel): its place and preview go
    if err then
      notify(what .. " failed: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    else
      -- The server has shown why nothing changed ("No change: <why>", window/showMessage); this line says how
      -- the edit ended ("done", "no change", "rejected", "stale", ...) with its stats.
      local s = summarize(result)
      if s then
        local ended = ({ applied = "done", unchanged = "no change" })[result.status] or result.status or "done"
        notify(ended .. " (" .. s .. ")")
      end
    end
    if on_done then
      on_done(err, result)
    end
  end
  ok, id = call(client, "request", "workspace/executeCommand", params, handler, bufnr)
  if not ok then
    notify("the server is not running", vim.log.levels.ERROR)
    return nil
  end
  running[id] = { client = client, bufnr = bufnr }
  return id
end

--- Send `copyAsDecode.edit` with `arg` = {uri, version, range?, position?, instruction} (see M.request).
function M.request_edit(client, bufnr, arg, on_done)
  return M.request(client, bufnr, SERVER_EDIT, arg, on_done)
end

--- Send `copyAsDecode.apply` with `arg` = {uri, version, block, range?, position?} (see M.request).
function M.request_apply(client, bufnr, arg, on_done)
  return M.request(client, bufnr, SERVER_APPLY, arg, on_done)
end

local function with_instruction(instruction, fn)
  if instruction and instruction ~= "" then
    return fn(instruction)
  end
  vim.ui.input({ prompt = "Copy-as-Decode instruction: " }, function(input)
    if input and vim.trim(input) ~= "" then
      fn(vim.trim(input))
    end
  end)
end

--- While the instruction is typed, the server's worker reads the window at `arg`'s place ({uri, version,
--- range?, position?}: copyAsDecode.prepare); the edit then reads only the instruction. Nothing waits for it;
--- `on_done(err, result)`, optional, gets the server's answer ({prepared, lines?, tokens?, reason?}).
function M.prepare(client, bufnr, arg, on_done)
  local place = { uri = arg.uri, version = arg.version, range = arg.range, position = arg.position }
  call(client, "request", "workspace/executeCommand", { command = SERVER_PREPARE, arguments = { place } },
    on_done or function() end, bufnr)
end

--- Edit by `instruction` (asks for it when empty): lines line1..line2 when given, else the function at the
--- cursor unless the instruction names another (the server decides, and edits a short buffer whole).
--- opts: { bufnr, instruction, line1, line2, on_done }
function M.edit(opts)
  opts = opts or {}
  local bufnr = (opts.bufnr == nil or opts.bufnr == 0) and vim.api.nvim_get_current_buf() or opts.bufnr
  -- Taken before the prompt, which may open a window of its own.
  local cursor = buffer_cursor(bufnr)
  local client = ready_client(bufnr)
  if not client then
    notify("the server did not start (see :LspLog)", vim.log.levels.ERROR)
    return
  end
  local encoding = client.offset_encoding or "utf-16"
  local arg = { uri = vim.uri_from_bufnr(bufnr), version = doc_version(bufnr) }
  if opts.line1 and opts.line2 then
    arg.range = range_params(bufnr, opts.line1, opts.line2, encoding)
  end
  -- With a range too: the range bounds the edit, the cursor tells the server where the user is.
  if cursor then
    arg.position = lsp_position(bufnr, cursor, encoding)
  end
  if not opts.instruction or opts.instruction == "" then
    M.prepare(client, bufnr, arg)
  end
  with_instruction(opts.instruction, function(instruction)
    -- the version once the instruction is in: a buffer changed meanwhile is not overwritten by a stale edit
    local full = vim.tbl_extend("force", arg, { version = doc_version(bufnr), instruction = instruction })
    M.request_edit(client, bufnr, full, opts.on_done)
  end)
end

--- The text of register `reg` ("" or nil: the unnamed register), or nil and why not.
local function register_text(reg)
  reg = (reg == nil or reg == "") and '"' or reg
  if #reg ~= 1 or not reg:match('^[%w"%-%*%+%.:/#%%]$') then
    return nil, "not a register: " .. reg
  end
  if (reg == "+" or reg == "*") and vim.fn.has("clipboard") == 0 then
    return nil, "no clipboard provider for register " .. reg .. " (:help clipboard)"
  end
  return vim.fn.getreg(reg)
end

--- Apply a code block (a chat's answer; lazy markers such as `# ... existing code ...` stand for what stays)
--- to the buffer with the server's copyAsDecode.apply: at lines line1..line2 when given, else at the cursor.
--- opts: { bufnr, block (default: the text of `register`), register (default the unnamed one), line1, line2,
--- on_done }. An empty block sends nothing.
function M.apply(opts)
  opts = opts or {}
  local bufnr = (opts.bufnr == nil or opts.bufnr == 0) and vim.api.nvim_get_current_buf() or opts.bufnr
  local block, why = opts.block, nil
  if block == nil then
    block, why = register_text(opts.register)
    if not block then
      notify(why, vim.log.levels.ERROR)
      return nil
    end
  end
  if vim.trim(block) == "" then
    local reg = (opts.register == nil or opts.register == "") and '"' or opts.register
    notify((opts.block ~= nil and "the code block" or "register " .. reg) .. " is empty; nothing to apply",
      vim.log.levels.WARN)
    return nil
  end
  local cursor = buffer_cursor(bufnr)
  local client = ready_client(bufnr)
  if not client then
    notify("the server did not start (see :LspLog)", vim.log.levels.ERROR)
    return nil
  end
  local encoding = client.offset_encoding or "utf-16"
  local arg = { uri = vim.uri_from_bufnr(bufnr), version = doc_version(bufnr), block = block }
  if opts.line1 and opts.line2 then
    arg.range = range_params(bufnr, opts.line1, opts.line2, encoding)
  elseif cursor then
    arg.position = lsp_position(bufnr, cursor, encoding)
  end
  return M.request_apply(client, bufnr, arg, opts.on_done)
end

--- Client side of the server's "Edit with Copy-as-Decode…" code action: argument {uri, version, range?,
--- position?}, sent back as the server made it (fields this plugin does not know included), with the instruction.
function M.edit_interactive(command, ctx)
  local arg = (command.arguments or {})[1]
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if type(arg) ~= "table" or not client then
    return
  end
  local bufnr = ctx.bufnr or vim.uri_to_bufnr(arg.uri)
  M.prepare(client, bufnr, arg)
  with_instruction(nil, function(instruction)
    local full = vim.tbl_extend("force", arg, { instruction = instruction })
    M.request_edit(client, bufnr, full)
  end)
end

--- Cancel the running edits (the request, and the server's cancellable progress).
function M.cancel()
  for id, r in pairs(running) do
    for token, _ in pairs(r.client.progress and r.client.progress.pending or {}) do
      call(r.client, "notify", "window/workDoneProgress/cancel", { token = token })
    end
    call(r.client, "cancel_request", id)
    running[id] = nil
    preview.clear(r.bufnr)
  end
end

--- True while an edit runs (for a statusline).
function M.is_running()
  return next(running) ~= nil
end

local function on_progress(args)
  local client = vim.lsp.get_client_by_id(args.data.client_id)
  if not client or client.name ~= NAME then
    return
  end
  local value = args.data.params and args.data.params.value or {}
  local msg = value.message or value.title
  if value.kind == "end" then
    msg = value.message or "done"
  end
  if msg then
    local pct = value.percentage and string.format(" %d%%", value.percentage) or ""
    vim.api.nvim_echo({ { "Copy-as-Decode: " .. msg .. pct } }, false, {})
  end
end

local function register()
  local config = lsp_config()
  if has_011 and vim.lsp.config and vim.lsp.enable then
    vim.lsp.config(NAME, {
      cmd = config.cmd,
      filetypes = config.filetypes,
      root_markers = config.root_markers,
      init_options = config.init_options,
      settings = config.settings,
      capabilities = config.capabilities,
      handlers = config.handlers,
      reuse_client = config.reuse_client,
    })
    vim.lsp.enable(NAME)
    return
  end
  local group = vim.api.nvim_create_augroup("copy_as_decode", { clear = true })
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
    group = group,
    callback = function(args)
      if vim.bo[args.buf].buftype ~= "" then
        return
      end
      local fts = M.config.filetypes
      if fts and not vim.tbl_contains(fts, vim.bo[args.buf].filetype) then
        return
      end
      M.attach(args.buf)
    end,
  })
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", M.config, opts or {})
  vim.lsp.commands[INTERACTIVE] = M.edit_interactive
  register()

  vim.api.nvim_create_user_command("CopyAsDecode", function(cmd)
    local o = { instruction = cmd.args }
    if cmd.range > 0 then
      o.line1, o.line2 = cmd.line1, cmd.line2
    end
    M.edit(o)
  end, { nargs = "*", range = true, desc = "Edit the buffer (or range) with Copy-as-Decode" })
  vim.api.nvim_create_user_command("CopyAsDecodeApply", function(cmd)
    local o = { register = vim.trim(cmd.args) }
    if cmd.range > 0 then
      o.line1, o.line2 = cmd.line1, cmd.line2
    end
    M.apply(o)
  end, {
    nargs = "?",
    range = true,
    desc = "Apply the code block in a register (default the unnamed one, + for the clipboard) at the cursor or range",
  })
  vim.api.nvim_create_user_command("CopyAsDecodeCancel", M.cancel, { desc = "Cancel running Copy-as-Decode edits" })
  vim.api.nvim_create_user_command("CopyAsDecodeAccept", function(cmd)
    review.act(true, cmd.bang)
  end, { bang = true, desc = "Accept the proposed change under the cursor (!: every one left)" })
  vim.api.nvim_create_user_command("CopyAsDecodeReject", function(cmd)
    review.act(false, cmd.bang)
  end, { bang = true, desc = "Reject the proposed change under the cursor (!: every one left)" })

  if M.config.progress and vim.fn.exists("##LspProgress") == 1 then
    vim.api.nvim_create_autocmd("LspProgress", {
      group = vim.api.nvim_create_augroup("copy_as_decode_progress", { clear = true }),
      callback = on_progress,
    })
  end
end

return M
