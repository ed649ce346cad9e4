-- Drives a real headless Neovim through the copy_as_decode plugin:
--   nvim --headless --clean -l tests/e2e/neovim.lua
-- Environment:
--   CAD_PLUGIN       folder holding lua/copy_as_decode (the repository's nvim/)
--   CAD_CMD          JSON array: the server command line
--   CAD_SETTINGS     JSON object: the copyAsDecode settings
--   CAD_FILE         file to open and edit (written back on success)
--   CAD_MODE         "code_action" (refactor action through vim.lsp.buf.code_action), "command" (:CopyAsDecode)
--                    or "apply" (:CopyAsDecodeApply with the code block in a register)
--   CAD_INSTRUCTION  the instruction (typed into vim.ui.input, or given to :CopyAsDecode)
--   CAD_BLOCK        "apply": file holding the code block, put into the register before the command
--   CAD_REGISTER     "apply": that register, given to the command (default: none given, the unnamed one)
--   CAD_LINES        "apply": optional "A,B", the command's range (else the cursor)
--   CAD_EXPECT_NOTHING  "apply": the command must send nothing (an empty register); report sent = 0
--   CAD_CURSOR       optional JSON LSP position {line, character} (0-based; character in bytes) where the
--                    cursor is put before the edit (default: the first line's start)
--   CAD_REVIEW       optional JSON list of steps in the review of the proposed change, each
--                    {win = "proposal"|"buffer", line = N, keys = "gh"}: the cursor goes to line N of that
--                    window and the keys are typed; after the edit one `u` is typed in the buffer
--   CAD_DIFFOPT      optional 'diffopt'
--   CAD_EXPECT_STATUS  optional: the status the answer must have (e.g. "error"); the run then ends there, its
--                    buffer text reported and nothing written
--   CAD_REPORT       JSON report written here: {ok, msg, text, status, actions, log, command and arg (the last
--                    command sent to the server and its argument), result (the server's answer to it),
--                    notes (the plugin's notifications); with CAD_REVIEW also
--                    layout ("row": side by side, "col": one above the other), undone (the text after `u`)}
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
  if env.CAD_DIFFOPT then
    vim.o.diffopt = env.CAD_DIFFOPT
  end
  -- What the user would type at the prompt.
  vim.ui.input = function(opts, on_confirm)
    log("prompt: " .. tostring(opts and opts.prompt))
    on_confirm(env.CAD_INSTRUCTION)
  end
  -- Everything the plugin reports, for the log.
  local notify = vim.notify
  report.notes = {}
  vim.notify = function(msg, level, o)
    log("notify: " .. tostring(msg))
    table.insert(report.notes, tostring(msg))
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
  local request = cad.request
  cad.request = function(c, b, command, arg, on_done)
    sent = sent + 1
    report.command, report.arg = command, arg
    log(command .. " " .. vim.json.encode(arg))
    return request(c, b, command, arg, function(e, result)
      answered = answered + 1
      answer_err, answer_result = e, result
      report.result = result
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
  local cursor = env.CAD_CURSOR and vim.json.decode(env.CAD_CURSOR) or { line = 0, character = 0 }

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
    vim.api.nvim_win_set_cursor(0, { cursor.line + 1, cursor.character })
    vim.lsp.buf.code_action({
      apply = true,
      context = { only = { "refactor.rewrite" }, diagnostics = {} },
      filter = function(a)
        return a.kind == "refactor.rewrite"
      end,
    })
  elseif env.CAD_MODE == "apply" then
    local f = assert(io.open(env.CAD_BLOCK, "rb"))
    local block = f:read("*a")
    f:close()
    local reg = env.CAD_REGISTER or ""
    -- As a yank would leave it (a named register also fills the unnamed one).
    vim.fn.setreg(reg == "" and '"' or reg, block)
    vim.api.nvim_win_set_cursor(0, { cursor.line + 1, cursor.character })
    local cmd = (env.CAD_LINES or "") .. "CopyAsDecodeApply" .. (reg ~= "" and (" " .. reg) or "")
    log(":" .. cmd)
    vim.cmd(cmd)
    if env.CAD_EXPECT_NOTHING then
      -- A command that must send nothing (an empty register): give it a moment, then report.
      vim.wait(1000, function()
        return sent > 0
      end, 20)
      report.sent = sent
      report.text = buffer_text(bufnr)
      return finish(sent == 0, sent == 0 and "nothing sent" or "a request was sent")
    end
  else
    vim.api.nvim_win_set_cursor(0, { cursor.line + 1, cursor.character })
    vim.cmd("CopyAsDecode " .. env.CAD_INSTRUCTION)
  end

  -- Wait for the answer to the edit request (the server applies the edit before it answers).
  if not vim.wait(timeout, function()
    return sent > 0
  end, 20) then
    return finish(false, "no edit request was sent")
  end
  if env.CAD_REVIEW then
    local proposal
    if not vim.wait(timeout, function()
      for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
        if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win)):match("^copy%-as%-decode://") then
          proposal = win
        end
      end
      return proposal ~= nil or answered >= sent
    end, 20) or not proposal then
      return finish(false, "no review opened")
    end
    report.layout = vim.fn.winlayout()[1]
    for _, step in ipairs(vim.json.decode(env.CAD_REVIEW)) do
      local win = proposal
      if step.win == "buffer" then
        win = vim.fn.win_getid(vim.fn.bufwinnr(bufnr))
      end
      vim.api.nvim_set_current_win(win)
      vim.api.nvim_win_set_cursor(win, { step.line, 0 })
      log(string.format("review: %s on line %d of the %s", step.keys, step.line, step.win))
      vim.cmd.normal(step.keys)
    end
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
  if env.CAD_REVIEW then
    report.reviewed = answer_result.reviewed
    report.text = buffer_text(bufnr)
    report.tabs = #vim.api.nvim_list_tabpages()
    vim.api.nvim_set_current_buf(bufnr)
    vim.cmd.normal("u")
    report.undone = buffer_text(bufnr)
    return finish(true, "reviewed")
  end
  if env.CAD_EXPECT_STATUS then
    vim.wait(500) -- the server's message follows its answer
    report.text = buffer_text(bufnr)
    return finish(report.status == env.CAD_EXPECT_STATUS, "status " .. tostring(report.status))
  end
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
