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
--   CAD_PREVIEW      optional JSON {sync, pick?, decide?, screens}: the edit shows its place, a pick when `pick`
--                    (the 0-based candidate vim.ui.select answers), and its inline diff; `sync` is the folder
--                    where the scripted server (standin_server.py) waits for `placed` and `streaming` (written
--                    after each screen capture); `decide`: steps of the review in place, each {line = N, keys}
--                    (the cursor to line N of the buffer, then the keys); `screens`: folder for the captures
--                    (neovim-<name>.json: the screen's rows and each cell's text and colours; .txt: its text)
--                    of pick, place, streaming (once the preview holds `streaming_lines` lines) and review. Report: pick_items (as vim.ui.select showed
--                    them), screens (name -> rows of text), marks (name -> the extmarks' highlight groups)
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

local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local log, finish = dofile(here .. "report.lua")("neovim.lua", report)

--- The window as the plugin's extmarks draw it, rendered here from the buffer and its marks (a headless Neovim
--- has no screen to read): the line numbers and signs, each line with its line highlight and end-of-line
--- virtual text, virtual lines above and below it; `extra` rows (a picker) first, the last message last.
--- Kept as rows of text and, for each cell, [text, fg, bg, flags] (colours #rrggbb; flags "b" bold, "i" italic).
local last_message = ""
local function capture(name, extra)
  local bufnr = vim.api.nvim_get_current_buf()
  local cols, height = vim.o.columns, vim.o.lines - 1
  local function hl(group)
    local h = group and vim.api.nvim_get_hl(0, { name = group, link = false }) or {}
    local fg, bg = h.fg, h.bg
    if h.reverse then
      fg, bg = bg, fg
    end
    return { fg = fg and string.format("#%06x", fg), bg = bg and string.format("#%06x", bg),
      flags = (h.bold and "b" or "") .. (h.italic and "i" or "") }
  end
  local normal = hl("Normal")
  local rows, cells = {}, {}
  local function row(chunks, line_group)
    local base = line_group and hl(line_group) or {}
    local text, out = {}, {}
    for _, chunk in ipairs(chunks) do
      local h = hl(chunk[2])
      for _, ch in ipairs(vim.fn.split(chunk[1], "\\zs")) do
        if #out < cols then
          table.insert(text, ch)
          table.insert(out, { ch, h.fg or base.fg, h.bg or base.bg, h.flags ~= "" and h.flags or (base.flags or "") })
        end
      end
    end
    while #out < cols do
      table.insert(text, " ")
      table.insert(out, { " ", nil, base.bg, "" })
    end
    table.insert(rows, table.concat(text))
    table.insert(cells, out)
  end
  for _, r in ipairs(extra or {}) do
    row({ { r[1], r[2] } }, r[2])
  end
  local marks_by_line = {}
  for _, ns in pairs(vim.api.nvim_get_namespaces()) do
    for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })) do
      marks_by_line[m[2]] = marks_by_line[m[2]] or {}
      table.insert(marks_by_line[m[2]], m[4])
    end
  end
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local gutter = "     "
  for i, text in ipairs(lines) do
    local line_group, sign, sign_group, eol, above, below = nil, "  ", nil, {}, {}, {}
    for _, d in ipairs(marks_by_line[i - 1] or {}) do
      line_group = d.line_hl_group or line_group
      if d.sign_text then
        sign, sign_group = d.sign_text, d.sign_hl_group
      end
      vim.list_extend(eol, d.virt_text or {})
      vim.list_extend(d.virt_lines_above and above or below, d.virt_lines or {})
    end
    for _, vl in ipairs(above) do
      row(vim.list_extend({ { gutter .. "  " } }, vl))
    end
    local chunks = { { string.format("%4d ", i), "LineNr" }, { sign, sign_group }, { text:gsub("\t", "    "), line_group } }
    if #eol > 0 then
      table.insert(chunks, { " " })
      vim.list_extend(chunks, eol)
    end
    row(chunks, line_group)
    for _, vl in ipairs(below) do
      row(vim.list_extend({ { gutter .. "  " } }, vl))
    end
  end
  while #rows > height - 1 do
    table.remove(rows)
    table.remove(cells)
  end
  while #rows < height - 1 do
    row({ { "~", "NonText" } })
  end
  row({ { " " .. vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ":t") .. " ", "StatusLine" } }, "StatusLine")
  row({ { last_message, "MsgArea" } })
  report.screens = report.screens or {}
  report.screens[name] = rows
  local spec = vim.json.decode(env.CAD_PREVIEW)
  if spec.screens then
    local f = assert(io.open(spec.screens .. "/neovim-" .. name .. ".json", "w"))
    f:write(vim.json.encode({ rows = rows, cells = cells, normal = { normal.fg, normal.bg } }))
    f:close()
    f = assert(io.open(spec.screens .. "/neovim-" .. name .. ".txt", "w"))
    f:write(table.concat(rows, "\n") .. "\n")
    f:close()
  end
  log("screen " .. name)
end

--- The highlight groups and virtual lines of the plugin's extmarks in `bufnr`: {line (1-based), what}.
local function marks(bufnr)
  local out = {}
  for _, ns in ipairs({ "copy_as_decode_place", "copy_as_decode_preview", "copy_as_decode_review" }) do
    local id = vim.api.nvim_get_namespaces()[ns]
    for _, m in ipairs(id and vim.api.nvim_buf_get_extmarks(bufnr, id, 0, -1, { details = true }) or {}) do
      local d = m[4]
      if d.line_hl_group then
        table.insert(out, { m[2] + 1, d.line_hl_group })
      end
      for _, vt in ipairs(d.virt_text or {}) do
        table.insert(out, { m[2] + 1, "virt_text " .. vt[1] })
      end
      for _, vl in ipairs(d.virt_lines or {}) do
        table.insert(out, { m[2] + 1, (d.virt_lines_above and "above " or "below ") .. vim.trim(vl[1][1]) .. " " .. vl[1][2] })
      end
    end
  end
  return out
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
  if env.CAD_PREVIEW then
    vim.o.termguicolors = true
    vim.o.columns, vim.o.lines = 110, 34
    vim.o.number, vim.o.signcolumn = true, "yes"
    -- The pick: a list in a window above the buffer (as a picker plugin would show it), the choice
    -- highlighted, then the answer.
    local spec = vim.json.decode(env.CAD_PREVIEW)
    vim.ui.select = function(items, opts, on_choice)
      local shown = {}
      for k, item in ipairs(items) do
        table.insert(shown, string.format("%d. %s", k, opts.format_item and opts.format_item(item) or tostring(item)))
      end
      report.pick_items, report.pick_prompt = shown, opts.prompt
      local pane = { { " " .. opts.prompt, "Title" } }
      for k, l in ipairs(shown) do
        table.insert(pane, { " " .. l, k == spec.pick + 1 and "PmenuSel" or "Pmenu" })
      end
      capture("pick", pane)
      log("pick: " .. tostring(spec.pick))
      on_choice(items[spec.pick + 1], spec.pick + 1)
    end
  end
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
      last_message = "Copy-as-Decode: " .. tostring(v.message or v.title)
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
  -- The prepare the plugin sends as the instruction prompt opens, and the server's answer.
  local prepare = cad.prepare
  cad.prepare = function(c, b, arg)
    report.prepare_arg = arg
    log("prepare " .. vim.json.encode(arg))
    return prepare(c, b, arg, function(e, result)
      report.prepared = e or result
      log("prepared: " .. vim.inspect(e or result))
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
  if env.CAD_PREVIEW then
    local spec = vim.json.decode(env.CAD_PREVIEW)
    local preview = require("copy_as_decode.preview")
    local function touch(name)
      local f = assert(io.open(spec.sync .. "/" .. name, "w"))
      f:close()
    end
    local function wait_state(what, test)
      if not vim.wait(timeout, function()
        local s = preview.state(bufnr)
        return (s and test(s)) or answered >= sent
      end, 20) or answered >= sent then
        error("no " .. what .. " shown before the edit ended")
      end
      vim.wait(300)
    end
    report.marks = {}
    wait_state("place", function(s)
      return s.place ~= nil and s.preview == nil
    end)
    report.marks.place = marks(bufnr)
    capture("place")
    touch("placed")
    wait_state("preview", function(s)
      return s.preview ~= nil and not s.preview.done and #s.preview.lines >= (spec.streaming_lines or 1)
    end)
    report.marks.streaming = marks(bufnr)
    capture("streaming")
    touch("streaming")
    if spec.decide then
      wait_state("review", function(s)
        return s.review ~= nil
      end)
      report.marks.review = marks(bufnr)
      report.text_in_review = buffer_text(bufnr)
      capture("review")
      for k, step in ipairs(spec.decide) do
        vim.api.nvim_win_set_cursor(0, { step.line, 0 })
        log(string.format("review in place: %s on line %d", step.keys, step.line))
        vim.cmd.normal(step.keys)
        vim.wait(200)
        if k == 1 then
          report.marks.decided = marks(bufnr)
          capture("decided")
        end
      end
    end
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
