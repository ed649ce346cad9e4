-- Review before apply: an edit the server sends for review (a workspace/applyEdit whose text edits carry
-- change annotations that need confirmation, one per hunk) opens as a diff of the buffer against the
-- proposed text in a new tab. Keys accept every hunk, reject the rest, or accept the hunk under the cursor;
-- whatever is accepted lands as one undo step, and the answer to the server says whether anything was.
-- When the edit's preview is on screen (preview.lua), the review happens in place instead: the hunks stay drawn
-- in the buffer (removed lines highlighted, new lines as virtual lines) and the same keys, plus one that rejects
-- the hunk under the cursor, decide them there.
local api = vim.api
local preview = require("copy_as_decode.preview")

local M = {}

M.ns = api.nvim_create_namespace("copy_as_decode_review")
local current -- the open review, for the :CopyAsDecodeAccept / :CopyAsDecodeReject commands

local function breaks(text)
  local _, n = (text:gsub("\r\n?", "\n")):gsub("\n", "")
  return n
end

local function before(a, b)
  return a.line < b.line or (a.line == b.line and a.character < b.character)
end

--- The one TextDocumentEdit of `edit` if some of its edits need confirmation, else nil.
local function for_review(edit)
  local changes, notes = edit.documentChanges or {}, edit.changeAnnotations or {}
  if #changes ~= 1 or not changes[1].edits then
    return nil
  end
  for _, e in ipairs(changes[1].edits) do
    if e.annotationId and notes[e.annotationId] and notes[e.annotationId].needsConfirmation then
      return changes[1]
    end
  end
end

--- The edits grouped by annotation, in buffer order, each with the lines it replaces in the buffer
--- (first..last, 0-based; last < first for lines inserted before `first`) and the lines it adds (delta,
--- negative when it removes more than it adds).
local function hunks_of(change)
  local by_id, hunks = {}, {}
  for _, e in ipairs(change.edits) do
    local id = e.annotationId or e
    if not by_id[id] then
      by_id[id] = { edits = {} }
      table.insert(hunks, by_id[id])
    end
    table.insert(by_id[id].edits, e)
  end
  for _, h in ipairs(hunks) do
    table.sort(h.edits, function(a, b)
      return before(a.range.start, b.range.start)
    end)
    local s, e = h.edits[1].range.start, h.edits[#h.edits].range["end"]
    h.first, h.last, h.delta = s.line, e.line, 0
    if e.character == 0 and e.line > s.line then
      h.last = e.line - 1 -- ends at a line start: that line stays
    elseif #h.edits == 1 and s.character == 0 and e.line == s.line and e.character == 0
      and h.edits[1].newText:match("[\r\n]$") then
      h.last = s.line - 1 -- whole lines inserted before line `first`
    end
    for _, x in ipairs(h.edits) do
      h.delta = h.delta + breaks(x.newText) - (x.range["end"].line - x.range.start.line)
    end
  end
  table.sort(hunks, function(a, b)
    return before(a.edits[1].range.start, b.edits[1].range.start)
  end)
  return hunks
end

--- Lines (first, last) of hunk k in the buffer as it is now, or in the proposed text.
local function span(review, k, proposed)
  local shift = 0
  for i = 1, k - 1 do
    if proposed or review.hunks[i].accepted then
      shift = shift + review.hunks[i].delta
    end
  end
  local h = review.hunks[k]
  return h.first + shift, h.last + shift + (proposed and h.delta or 0)
end

local function hunk_at_cursor(review)
  local proposed = api.nvim_get_current_buf() == review.scratch
  local row = api.nvim_win_get_cursor(0)[1] - 1
  for k, h in ipairs(review.hunks) do
    if not h.accepted and not h.rejected then
      local first, last = span(review, k, proposed)
      -- lines that exist only on the other side show as filler: the lines around it count
      if (row >= first and row <= last) or (last < first and (row == first or row == last)) then
        return k
      end
    end
  end
end

--- Apply hunks `ks` (not accepted yet) to the buffer, joined to the hunks accepted before in one undo step.
local function accept(review, ks)
  local edits = {}
  for _, k in ipairs(ks) do
    local shift = span(review, k, false) - review.hunks[k].first
    for _, e in ipairs(review.hunks[k].edits) do
      local copy = vim.deepcopy(e) -- apply_text_edits changes what it is given
      copy.range.start.line = copy.range.start.line + shift
      copy.range["end"].line = copy.range["end"].line + shift
      table.insert(edits, copy)
    end
  end
  api.nvim_buf_call(review.bufnr, function()
    if review.accepted > 0 then
      vim.cmd.undojoin()
    end
    vim.lsp.util.apply_text_edits(edits, review.bufnr, review.encoding)
  end)
  for _, k in ipairs(ks) do
    review.hunks[k].accepted = true
  end
  review.accepted = review.accepted + #ks
  review.tick = api.nvim_buf_get_changedtick(review.bufnr)
end

local function close(review)
  if current == review then
    current = nil
  end
  pcall(api.nvim_del_augroup_by_id, review.group)
  for _, lhs in pairs(review.keys) do
    pcall(vim.keymap.del, "n", lhs, { buffer = review.bufnr })
  end
  for _, map in ipairs(review.saved_maps) do
    api.nvim_buf_call(review.bufnr, function()
      vim.fn.mapset("n", false, map)
    end)
  end
  if review.inline then
    pcall(api.nvim_buf_clear_namespace, review.bufnr, M.ns, 0, -1)
    preview.clear(review.bufnr)
    return
  end
  if api.nvim_win_is_valid(review.source_win) then
    api.nvim_win_call(review.source_win, vim.cmd.diffoff)
  end
  for _, win in ipairs({ review.proposal_win, review.source_win }) do
    if api.nvim_win_is_valid(win) then
      pcall(api.nvim_win_close, win, true)
    end
  end
  if api.nvim_win_is_valid(review.from_win) then
    api.nvim_set_current_win(review.from_win)
  end
end

--- End the review once: close it and answer the server.
local function finish(review, failure)
  if review.done then
    return
  end
  review.done = true
  vim.schedule(function()
    close(review) -- not inside the autocommand that may have ended the review
    review.answer({ applied = review.accepted > 0, failureReason = review.accepted == 0 and failure or nil })
  end)
end

local function changed_meanwhile(review)
  if api.nvim_buf_get_changedtick(review.bufnr) == review.tick then
    return false
  end
  vim.notify("Copy-as-Decode: the buffer changed during the review; the hunks not yet accepted were dropped",
    vim.log.levels.WARN)
  finish(review, "the buffer changed during the review")
  return true
end

local function pending(review)
  local ks = {}
  for k, h in ipairs(review.hunks) do
    if not h.accepted and not h.rejected then
      table.insert(ks, k)
    end
  end
  return ks
end

--- Decide the hunk under the cursor with `decide(k)`, then end the review when none is left, else show the rest.
local function decide_hunk(review, decide)
  if changed_meanwhile(review) then
    return
  end
  local k = hunk_at_cursor(review)
  if not k then
    vim.notify("Copy-as-Decode: no proposed change under the cursor", vim.log.levels.INFO)
    return
  end
  decide(k)
  if #pending(review) == 0 then
    finish(review)
  elseif review.inline then
    M.draw(review)
  else
    vim.cmd.diffupdate()
  end
end

local actions = {
  accept_all = function(review)
    if not changed_meanwhile(review) then
      accept(review, pending(review))
      finish(review)
    end
  end,
  reject_all = function(review)
    finish(review)
  end,
  accept_hunk = function(review)
    decide_hunk(review, function(k)
      accept(review, { k })
    end)
  end,
  reject_hunk = function(review)
    decide_hunk(review, function(k)
      review.hunks[k].rejected = true
    end)
  end,
}

--- The review's keys in `buffers`, the buffer's own mappings of them saved to be put back by close().
local function bind_keys(review, buffers)
  review.saved_maps = {}
  for name, lhs in pairs(review.keys) do
    local map = api.nvim_buf_call(review.bufnr, function()
      return vim.fn.maparg(lhs, "n", false, true)
    end)
    if map.buffer == 1 then
      table.insert(review.saved_maps, map)
    end
    for _, b in ipairs(buffers) do
      vim.keymap.set("n", lhs, function()
        actions[name](review)
      end, { buffer = b, nowait = true, desc = "Copy-as-Decode review: " .. name:gsub("_", " ") })
    end
  end
end

--- The hunks still proposed, drawn in the buffer where they are now, each with the keys that decide it.
function M.draw(review)
  api.nvim_buf_clear_namespace(review.bufnr, M.ns, 0, -1)
  local keys, hunks = review.keys, {}
  for _, k in ipairs(pending(review)) do
    local first, last = span(review, k, false)
    table.insert(hunks, { first = first, last = last, added = review.hunks[k].new_lines, label = review.hunks[k].label })
  end
  local n = #hunks
  preview.draw_hunks(review.bufnr, M.ns, hunks, function(h)
    return ("  %s accept · %s reject   (%s%d to decide: %s accept all · %s reject all)"):format(keys.accept_hunk,
      keys.reject_hunk, h.label and (h.label .. "; ") or "", n, keys.accept_all, keys.reject_all)
  end)
end

--- The review in place: the proposed lines of each hunk, the keys in the buffer, the hunks drawn.
local function open_inline(review)
  local bufnr, scratch = review.bufnr, api.nvim_create_buf(false, true)
  api.nvim_buf_set_lines(scratch, 0, -1, false, api.nvim_buf_get_lines(bufnr, 0, -1, false))
  local all = {}
  for _, h in ipairs(review.hunks) do
    vim.list_extend(all, vim.deepcopy(h.edits))
  end
  vim.lsp.util.apply_text_edits(all, scratch, review.encoding)
  for k, h in ipairs(review.hunks) do
    local first, last = span(review, k, true)
    h.new_lines = last >= first and api.nvim_buf_get_lines(scratch, first, last + 1, false) or {}
  end
  api.nvim_buf_delete(scratch, { force = true })
  review.inline = true
  bind_keys(review, { bufnr })
  preview.set_review(bufnr, review)
  M.draw(review)
  local keys = review.keys
  vim.notify(("Copy-as-Decode: %d change%s to review (%s/%s accept/reject hunk, %s/%s all)"):format(#review.hunks,
    #review.hunks == 1 and "" or "s", keys.accept_hunk, keys.reject_hunk, keys.accept_all, keys.reject_all))
end

--- :CopyAsDecodeAccept[!] / :CopyAsDecodeReject[!]: decide the hunk under the cursor, or (all) every hunk left.
function M.act(accept, all)
  if not current then
    vim.notify("Copy-as-Decode: no change to review", vim.log.levels.INFO)
    return
  end
  local name = (accept and "accept_" or "reject_") .. (all and "all" or "hunk")
  if name == "reject_hunk" and not current.inline then
    vim.notify("Copy-as-Decode: reject a hunk by accepting the others, then " .. current.keys.reject_all,
      vim.log.levels.INFO)
    return
  end
  actions[name](current)
end

local function open(review)
  local bufnr, scratch = review.bufnr, api.nvim_create_buf(false, true)
  review.scratch = scratch
  api.nvim_buf_set_lines(scratch, 0, -1, false, api.nvim_buf_get_lines(bufnr, 0, -1, false))
  local all = {}
  for _, h in ipairs(review.hunks) do
    vim.list_extend(all, vim.deepcopy(h.edits))
  end
  vim.lsp.util.apply_text_edits(all, scratch, review.encoding)
  vim.bo[scratch].buflisted = false
  vim.bo[scratch].bufhidden = "wipe"
  vim.bo[scratch].modifiable = false
  api.nvim_buf_set_name(scratch, ("copy-as-decode://%d/%s"):format(scratch,
    vim.fn.fnamemodify(api.nvim_buf_get_name(bufnr), ":t")))
  vim.bo[scratch].filetype = vim.bo[bufnr].filetype

  review.from_win = api.nvim_get_current_win()
  vim.cmd("tab split")
  review.source_win = api.nvim_get_current_win()
  api.nvim_win_set_buf(review.source_win, bufnr)
  -- side by side when 'diffopt' says "vertical", as :diffsplit does
  local vertical = vim.tbl_contains(vim.opt.diffopt:get(), "vertical")
  review.proposal_win = api.nvim_open_win(scratch, true, { split = vertical and "right" or "below" })
  for _, win in ipairs({ review.source_win, review.proposal_win }) do
    api.nvim_win_call(win, vim.cmd.diffthis)
  end
  local keys = review.keys
  keys = { accept_all = keys.accept_all, reject_all = keys.reject_all, accept_hunk = keys.accept_hunk }
  review.keys = keys
  vim.wo[review.proposal_win].winbar = ("Copy-as-Decode: proposed change   %s accept all · %s reject the rest · "
    .. "%s accept hunk"):format(keys.accept_all, keys.reject_all, keys.accept_hunk)

  bind_keys(review, { bufnr, scratch })
  review.group = api.nvim_create_augroup("copy_as_decode_review_" .. scratch, { clear = true })
  api.nvim_create_autocmd("BufWipeout", { -- the review window closed (:q, :tabclose): reject the rest
    group = review.group,
    buffer = scratch,
    callback = function()
      finish(review)
    end,
  })
  local first = span(review, 1, true)
  api.nvim_win_set_cursor(review.proposal_win, { math.min(first + 1, api.nvim_buf_line_count(scratch)), 0 })
  vim.notify(("Copy-as-Decode: %d change%s to review (%s accept all, %s reject the rest, %s accept hunk, ]c/[c move)")
    :format(#review.hunks, #review.hunks == 1 and "" or "s", keys.accept_all, keys.reject_all, keys.accept_hunk))
end

--- The workspace/applyEdit handler: an edit for review waits for the user (the handler runs in a coroutine,
--- as Neovim 0.11 runs server requests, and answers when resumed); anything else goes to Neovim's own.
function M.apply_edit(err, params, ctx, keys)
  local change = params and params.edit and for_review(params.edit)
  local co, is_main = coroutine.running()
  if not change or not co or is_main then
    local result = vim.lsp.handlers["workspace/applyEdit"](err, params, ctx)
    for _, c in ipairs(params and params.edit and params.edit.documentChanges or {}) do
      if c.textDocument then
        preview.clear(vim.uri_to_bufnr(c.textDocument.uri)) -- applied: the preview has served
      end
    end
    return result
  end
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local bufnr = vim.uri_to_bufnr(change.textDocument.uri)
  vim.fn.bufload(bufnr)
  local version = change.textDocument.version
  if version and version ~= vim.NIL and version ~= vim.lsp.util.buf_versions[bufnr] then
    return { applied = false, failureReason = "the buffer changed before the review" }
  end
  local review = {
    bufnr = bufnr,
    encoding = client and client.offset_encoding or "utf-16",
    hunks = hunks_of(change),
    keys = keys,
    accepted = 0,
    tick = api.nvim_buf_get_changedtick(bufnr),
    answer = function(result)
      coroutine.resume(co, result)
    end,
  }
  current = review
  if preview.showing(bufnr) then
    open_inline(review)
  else
    open(review)
  end
  return coroutine.yield()
end

return M
