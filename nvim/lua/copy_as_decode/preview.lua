-- While an edit decodes: where it lands (copyAsDecode/place: the window's lines highlighted, its label as
-- virtual text), a pick between places (copyAsDecode/pick, through vim.ui.select), and the window's new text
-- as it streams (copyAsDecode/preview): an inline diff of extmarks that never touches the buffer, removed lines
-- highlighted, new lines as virtual lines. An edit that then goes to review is reviewed in place (review.lua).
local api = vim.api

local M = {}

--- What the plugin shows; the server sends these only to a client that declares them.
M.features = { "pick", "preview", "place" }

M.ns_place = api.nvim_create_namespace("copy_as_decode_place")
M.ns_preview = api.nvim_create_namespace("copy_as_decode_preview")

-- bufnr -> { place = {version, ranges, label}, preview = {version, range, lines, done}, group }
local states = {}

local function set_highlights()
  for name, link in pairs({
    CopyAsDecodePlace = "CursorLine",
    CopyAsDecodePlaceSign = "DiagnosticInfo",
    CopyAsDecodePlaceLabel = "DiagnosticVirtualTextInfo",
    CopyAsDecodeRemoved = "DiffDelete",
    CopyAsDecodeAdded = "DiffAdd",
    CopyAsDecodeHint = "Comment",
  }) do
    api.nvim_set_hl(0, name, { default = true, link = link })
  end
end
set_highlights()

local function split_lines(text)
  local lines = vim.split(text, "\r?\n")
  if lines[#lines] == "" then
    table.remove(lines)
  end
  return lines
end

--- The buffer of `uri` when it is loaded and at `version` (nil: any version); else nil.
local function buffer_at(uri, version)
  local bufnr = vim.uri_to_bufnr(uri)
  if not api.nvim_buf_is_loaded(bufnr) then
    return nil
  end
  local current = vim.lsp.util.buf_versions[bufnr]
  if version ~= nil and version ~= vim.NIL and current ~= nil and current ~= version then
    return nil
  end
  return bufnr
end

--- Whole lines a range covers, 0-based (one that ends at a line start does not take that line).
local function line_span(r)
  local last = r["end"].line
  if r["end"].character == 0 and last > r.start.line then
    last = last - 1
  end
  return r.start.line, last
end

local function width(bufnr)
  local win = vim.fn.bufwinid(bufnr)
  return win ~= -1 and api.nvim_win_get_width(win) or vim.o.columns
end

--- A virtual line of `text` in `hl`, padded to the window's width so that it reads as a line.
local function vline(bufnr, text, hl)
  text = text:gsub("\t", string.rep(" ", vim.bo[bufnr].tabstop))
  local pad = math.max(0, width(bufnr) - vim.fn.strdisplaywidth(text) - 8)
  return { { text .. string.rep(" ", pad), hl } }
end
M.vline = vline

local function mark_lines(bufnr, ns, first, last, hl, sign)
  local count = api.nvim_buf_line_count(bufnr)
  for line = first, math.min(last, count - 1) do
    api.nvim_buf_set_extmark(bufnr, ns, line, 0, { line_hl_group = hl, sign_text = sign, sign_hl_group = sign
      and "CopyAsDecodePlaceSign" or nil, priority = 200 })
  end
end

local function label_at(bufnr, ns, line, label)
  line = math.max(0, math.min(line, api.nvim_buf_line_count(bufnr) - 1))
  api.nvim_buf_set_extmark(bufnr, ns, line, 0, { virt_text = { { " ← " .. label .. " ", "CopyAsDecodePlaceLabel" } },
    virt_text_pos = "eol", priority = 300 })
end

--- Hunks of old lines `old` (from line `first`) against the new lines so far: {first, last (last < first: new
--- lines go after line first - 1), added}. While the text streams, old lines past its end are not reached
--- yet: the last hunk takes at most as many old lines as it adds. Also the first line not reached.
local function diff(first, old, new, done)
  local a = #old > 0 and table.concat(old, "\n") .. "\n" or ""
  local b = #new > 0 and table.concat(new, "\n") .. "\n" or ""
  local runs = vim.diff(a, b, { result_type = "indices" }) or {}
  local hunks, consumed = {}, #new
  for i, r in ipairs(runs) do
    local sa, ca, sb, cb = r[1], r[2], r[3], r[4]
    local a0 = ca == 0 and sa or sa - 1 -- 0-based offset of the old lines
    local b0 = cb == 0 and sb or sb - 1
    if not done and i == #runs and b0 + cb == #new then
      ca = math.min(ca, cb)
    end
    consumed = a0 + ca + (#new - b0 - cb)
    if ca > 0 or cb > 0 then
      table.insert(hunks, { first = first + a0, last = first + a0 + ca - 1, added = vim.list_slice(new, b0 + 1, b0 + cb) })
    end
  end
  return hunks, first + consumed
end

--- Draw `hunks` ({first, last, added}: old lines first..last replaced by `added`) in namespace `ns`.
function M.draw_hunks(bufnr, ns, hunks, hint)
  local count = api.nvim_buf_line_count(bufnr)
  for _, h in ipairs(hunks) do
    mark_lines(bufnr, ns, h.first, h.last, "CopyAsDecodeRemoved")
    local virt = {}
    for _, text in ipairs(h.added) do
      table.insert(virt, vline(bufnr, text, "CopyAsDecodeAdded"))
    end
    local anchor = h.last >= h.first and h.last or h.first - 1
    local opts = { virt_lines = #virt > 0 and virt or nil }
    if anchor < 0 then
      anchor, opts.virt_lines_above = 0, true
    end
    anchor = math.min(anchor, count - 1)
    if opts.virt_lines then
      api.nvim_buf_set_extmark(bufnr, ns, anchor, 0, opts)
    end
    if hint then
      local top = h.last >= h.first and h.first or math.max(0, h.first - 1)
      api.nvim_buf_set_extmark(bufnr, ns, math.min(top, count - 1), 0, {
        virt_lines = { { { hint(h), "CopyAsDecodeHint" } } }, virt_lines_above = true })
    end
  end
end

local function render(bufnr)
  if not api.nvim_buf_is_valid(bufnr) then
    return
  end
  api.nvim_buf_clear_namespace(bufnr, M.ns_place, 0, -1)
  api.nvim_buf_clear_namespace(bufnr, M.ns_preview, 0, -1)
  local s = states[bufnr]
  if not s or s.review then
    return
  end
  if s.candidates then
    for k, c in ipairs(s.candidates) do
      local first, last = line_span(c.range)
      mark_lines(bufnr, M.ns_place, first, last, "CopyAsDecodePlace", "▍")
      label_at(bufnr, M.ns_place, first, ("%d: %s?"):format(k, c.label))
    end
    return
  end
  if s.preview then
    local p = s.preview
    local first, last = line_span(p.range)
    local old = api.nvim_buf_get_lines(bufnr, first, last + 1, false)
    local hunks, reached = diff(first, old, p.lines, p.done)
    M.draw_hunks(bufnr, M.ns_preview, hunks)
    if not p.done and reached <= last then
      mark_lines(bufnr, M.ns_place, reached, last, "CopyAsDecodePlace", "▍")
    end
    if s.place then
      label_at(bufnr, M.ns_place, first, s.place.label .. (p.done and "" or ": writing…"))
    end
  elseif s.place then
    for _, r in ipairs(s.place.ranges) do
      local first, last = line_span(r)
      mark_lines(bufnr, M.ns_place, first, last, "CopyAsDecodePlace", "▍")
    end
    if s.place.ranges[1] then
      label_at(bufnr, M.ns_place, s.place.ranges[1].start.line, s.place.label)
    end
  end
end

local function state(bufnr)
  if not states[bufnr] then
    local group = api.nvim_create_augroup("copy_as_decode_preview_" .. bufnr, { clear = true })
    -- a place or preview of a version the buffer has left goes (a review watches the buffer itself)
    api.nvim_create_autocmd({ "TextChanged", "TextChangedI" }, {
      group = group,
      buffer = bufnr,
      callback = function()
        local s = states[bufnr]
        if s and not s.review and (s.place or s.preview) then
          M.clear(bufnr)
        end
      end,
    })
    states[bufnr] = { group = group }
  end
  return states[bufnr]
end

--- The edit of `bufnr` ended (result, failure or cancel): its place and preview go. nil: every buffer's.
function M.clear(bufnr)
  for b, s in pairs(states) do
    if bufnr == nil or b == bufnr then
      pcall(api.nvim_del_augroup_by_id, s.group)
      states[b] = nil
      render(b)
    end
  end
end

--- Whether a preview of `bufnr` is on screen (an edit for review then opens in place).
function M.showing(bufnr)
  return states[bufnr] ~= nil and states[bufnr].preview ~= nil
end

--- A review in place takes over the buffer's marks (review.lua draws them); nil gives them back.
function M.set_review(bufnr, review)
  if states[bufnr] then
    states[bufnr].review = review
    render(bufnr)
  end
end

--- The state of `bufnr` for tests and statuslines: {place, preview, candidates, review} or nil.
function M.state(bufnr)
  return states[bufnr]
end

-- -- handlers --------------------------------------------------------------------------------------------------

function M.on_place(_, params)
  local bufnr = params and buffer_at(params.uri, params.version)
  if not bufnr then
    return
  end
  local s = state(bufnr)
  local label = params.label
  if not label or label == "" then
    label = "editing " .. table.concat(params.symbols or {}, ", ")
  end
  s.place = { version = params.version, ranges = params.ranges or {}, label = label }
  s.preview = nil
  render(bufnr)
end

function M.on_preview(_, params)
  if not params then
    return
  end
  local bufnr = buffer_at(params.uri, params.text ~= vim.NIL and params.version or nil)
  local s = bufnr and states[bufnr] or nil
  if params.text == vim.NIL or params.text == nil or not bufnr then
    bufnr = vim.uri_to_bufnr(params.uri)
    if states[bufnr] and not states[bufnr].review then
      states[bufnr].preview = nil
      if params.text == vim.NIL or params.text == nil then
        states[bufnr].place = nil
      end
      render(bufnr)
    end
    return
  end
  s = s or state(bufnr)
  if s.review then
    return
  end
  s.preview = { version = params.version, range = params.range, lines = split_lines(params.text), done = params.done == true }
  render(bufnr)
end

--- copyAsDecode/pick: vim.ui.select over the places (each "label — detail"); every candidate's lines are
--- highlighted, numbered as in the list, while it is open. Answers {index} (0-based) or null.
function M.on_pick(_, params)
  local candidates = params and params.candidates or {}
  local bufnr = params and buffer_at(params.uri, nil)
  if #candidates == 0 then
    return vim.NIL
  end
  if bufnr then
    state(bufnr).candidates = candidates
    render(bufnr)
    local win = vim.fn.bufwinid(bufnr)
    if win ~= -1 then
      local line = candidates[1].range.start.line
      api.nvim_win_call(win, function()
        if line + 1 < vim.fn.line("w0") or line + 1 > vim.fn.line("w$") then
          api.nvim_win_set_cursor(win, { line + 1, 0 })
          vim.cmd("normal! zz")
        end
      end)
    end
  end
  local co, is_main = coroutine.running()
  local answered, waiting, result = false, false, vim.NIL
  vim.ui.select(candidates, {
    prompt = "Copy-as-Decode: where should the edit go?",
    kind = "copy_as_decode.place",
    format_item = function(c)
      return (c.detail and c.detail ~= vim.NIL and c.detail ~= "") and (c.label .. " — " .. c.detail) or c.label
    end,
  }, function(_, idx)
    if answered then
      return
    end
    answered = true
    result = idx and { index = idx - 1 } or vim.NIL
    if bufnr and states[bufnr] then
      states[bufnr].candidates = nil
      render(bufnr)
    end
    if waiting then
      coroutine.resume(co, result)
    end
  end)
  if answered or not co or is_main then
    return result
  end
  waiting = true
  return coroutine.yield()
end

return M
