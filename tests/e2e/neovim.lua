-- Drives a real headless Neovim through the copy_as_decode plugin:
--   nvim --headless --clean -l tests/e2e/neovim.lua
-- Environment:
--   CAD_PLUGIN       folder holding lua/copy_as_decode (the repository's nvim/)
--   CAD_CMD          JSON array: the server command line
--   CAD_SETTINGS     JSON object: the copyAsDecode settings
--   CAD_FILE         file to open and edit (written back on success)
--   CAD_MODE         "code_action" (refactor action through vim.lsp.buf.code_action) or "command" (:CopyAsDecode)
--   CAD_INSTRUCTION  the instruction (typed into vim.ui.input, or given to :CopyAsDecode)
--   CAD_REPORT       JSON report written here: {ok, msg, text, actions, log}
--   CAD_TIMEOUT_MS   wait limit for the server start and for the edit (default 240000)
local env = vim.env
local timeout = tonumber(env.CAD_TIMEOUT_MS or "240000")
local report = { ok = false, log = {} }

local function log(msg)
  table.insert(report.log, msg)
  io.stderr:write("[neovim.lua] " .. msg .. "\n")
end

local function finish(ok, msg)
  report.ok, report.msg = ok, msg
  log((ok and "ok: " or "FAILED: ") .. msg)
  local f = assert(io.open(env.CAD_REPORT, "w"))
  f:write(vim.json.encode(report))
  f:close()
  for _, client in ipairs(vim.lsp.get_clients()) do
    client:stop()
  end
  vim.wait(3000, function()
    return #vim.lsp.get_clients() == 0
  end, 50)
  os.exit(ok and 0 or 1)
end

local function buffer_text(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  return table.concat(lines, "\n") .. (vim.bo[bufnr].eol and "\n" or "")
end

local ok, err = pcall(function()
  vim.opt.rtp:prepend(env.CAD_PLUGIN)
  vim.o.swapfile = false
  -- What the user would type at the prompt.
  vim.ui.input = function(opts, on_confirm)
    log("prompt: " .. tostring(opts and opts.prompt))
    on_confirm(env.CAD_INSTRUCTION)
  end
  -- Everything the plugin reports, for the log.
  local notify = vim.notify
  vim.notify = function(msg, level, o)
    log("notify: " .. tostring(msg))
    return notify(msg, level, o)
  end
  vim.api.nvim_create_autocmd("LspProgress", {
    callback = function(args)
      local v = args.data.params.value
      log(string.format("progress %s: %s", v.kind, tostring(v.message or v.title)))
    end,
  })

  local cad = require("copy_as_decode")
  -- Count the edit requests the plugin sends and the answers it gets.
  local sent, answered, answer_err, answer_result = 0, 0, nil, nil
  local request_edit = cad.request_edit
  cad.request_edit = function(c, b, arg, on_done)
    sent = sent + 1
    log("copyAsDecode.edit " .. vim.json.encode(arg))
    return request_edit(c, b, arg, function(e, result)
      answered = answered + 1
      answer_err, answer_result = e, result
      log("answer: " .. vim.inspect(e or result))
      if on_done then
        on_done(e, result)
      end
    end)
  end
  cad.setup({ cmd = vim.json.decode(env.CAD_CMD), settings = vim.json.decode(env.CAD_SETTINGS) })

  vim.cmd.edit(vim.fn.fnameescape(env.CAD_FILE))
  local bufnr = vim.api.nvim_get_current_buf()

  -- vim.lsp.enable attaches on FileType; wait for that client (or start it for a buffer without one).
  local client
  vim.wait(timeout, function()
    client = vim.lsp.get_clients({ bufnr = bufnr, name = "copy_as_decode" })[1]
    return client ~= nil and client.initialized == true
  end, 50)
  if not (client and client.initialized) then
    return finish(false, "the server did not attach/initialize")
  end
  log("attached: " .. client.name .. ", position encoding " .. client.offset_encoding)

  local edit_seen
  local tick = vim.b[bufnr].changedtick

  if env.CAD_MODE == "code_action" then
    -- A diagnostic on line 1, as a linter would publish it; the light bulb request carries it.
    local ns = vim.api.nvim_create_namespace("cad-e2e")
    vim.diagnostic.set(ns, bufnr, {
      { lnum = 0, col = 0, end_lnum = 0, end_col = 3, message = "example problem", severity = vim.diagnostic.severity.WARN },
    })
    local params = vim.lsp.util.make_range_params(0, client.offset_encoding)
    params.context = {
      diagnostics = {
        {
          range = { start = { line = 0, character = 0 }, ["end"] = { line = 0, character = 3 } },
          message = "example problem",
          severity = 2,
        },
      },
      triggerKind = 1,
    }
    local resp = client:request_sync("textDocument/codeAction", params, timeout, bufnr)
    if not resp or resp.err then
      return finish(false, "codeAction failed: " .. vim.inspect(resp and resp.err))
    end
    report.actions = {}
    for _, a in ipairs(resp.result or {}) do
      table.insert(report.actions, { title = a.title, kind = a.kind })
    end
    log("code actions: " .. vim.inspect(report.actions))
    vim.diagnostic.reset(ns, bufnr)

    -- The same path as `gra`: pick the refactor action and apply it.
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    vim.lsp.buf.code_action({
      apply = true,
      context = { only = { "refactor.rewrite" }, diagnostics = {} },
      filter = function(a)
        return a.kind == "refactor.rewrite"
      end,
    })
  else
    vim.cmd("CopyAsDecode " .. env.CAD_INSTRUCTION)
  end

  -- Wait for the answer to the edit request (the server applies the edit before it answers).
  if not vim.wait(timeout, function()
    return sent > 0
  end, 20) then
    return finish(false, "no edit request was sent")
  end
  if not vim.wait(timeout, function()
    return answered >= sent
  end, 50) then
    return finish(false, "the edit did not finish in time")
  end
  if answer_err then
    return finish(false, "the server answered with an error: " .. vim.inspect(answer_err))
  end
  -- "applied", or "unchanged" (the model kept the text); anything else is a failure.
  report.status = type(answer_result) == "table" and answer_result.status or nil
  if report.status ~= nil and report.status ~= "applied" and report.status ~= "unchanged" then
    return finish(false, "the edit was not applied: " .. vim.inspect(answer_result))
  end
  vim.wait(500, function()
    return vim.b[bufnr].changedtick ~= tick
  end, 20)
  edit_seen = vim.b[bufnr].changedtick ~= tick
  report.text = buffer_text(bufnr)
  report.changed = edit_seen
  vim.cmd.write()
  finish(true, edit_seen and "edited and written" or "written (the edit left the text as it was)")
end)
if not ok then
  finish(false, "error: " .. tostring(err))
end
