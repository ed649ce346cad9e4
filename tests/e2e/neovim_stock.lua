-- Drives a stock headless Neovim (no plugin: its own LSP client and handlers, as a user of nvim-lspconfig has
-- them) against the language server, which then sees a client without change annotations:
--   nvim --headless --clean -l tests/e2e/neovim_stock.lua
-- Environment:
--   CAD_CMD          JSON array: the server command line
--   CAD_SETTINGS     JSON object: the copyAsDecode settings
--   CAD_FILE         file to open and edit
--   CAD_INSTRUCTION  the instruction of the copyAsDecode.edit command
--   CAD_ANSWER       the action vim.ui.select picks when the server asks (window/showMessageRequest goes
--                    there, Neovim's own handler); empty: the user closes it
--   CAD_REPORT       JSON report written here: {ok, msg, status, result (the command's answer), text (the
--                    buffer after it), asked ({prompt, items}: every question), messages (window/showMessage),
--                    applied (the workspace/applyEdit requests seen), log}
--   CAD_TIMEOUT_MS   wait limit for the server start and for the edit (default 60000)
local env = vim.env
local timeout = tonumber(env.CAD_TIMEOUT_MS or "60000")
local report = { ok = false, log = {}, asked = {}, messages = {}, applied = 0 }

local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local log, finish = dofile(here .. "report.lua")("neovim_stock.lua", report)

local ok, err = pcall(function()
  vim.o.swapfile = false
  -- The user's answer to a question: the item titled CAD_ANSWER, or none.
  vim.ui.select = function(items, opts, on_choice)
    local titles = {}
    for _, item in ipairs(items) do
      table.insert(titles, opts.format_item and opts.format_item(item) or tostring(item))
    end
    table.insert(report.asked, { prompt = opts.prompt, items = titles })
    log("asked: " .. tostring(opts.prompt) .. " " .. vim.inspect(titles))
    for k, item in ipairs(items) do
      if titles[k] == env.CAD_ANSWER then
        return on_choice(item, k)
      end
    end
    on_choice(nil, nil)
  end
  local show = vim.lsp.handlers["window/showMessage"]
  vim.lsp.handlers["window/showMessage"] = function(e, params, ctx)
    table.insert(report.messages, params.message)
    log("message: " .. params.message)
    return show(e, params, ctx)
  end
  local apply = vim.lsp.handlers["workspace/applyEdit"]
  vim.lsp.handlers["workspace/applyEdit"] = function(e, params, ctx)
    report.applied = report.applied + 1
    log("applyEdit: " .. vim.json.encode(params.edit))
    return apply(e, params, ctx)
  end

  vim.cmd.edit(vim.fn.fnameescape(env.CAD_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start({
    name = "copy_as_decode",
    cmd = vim.json.decode(env.CAD_CMD),
    root_dir = vim.fs.dirname(env.CAD_FILE),
    init_options = { copyAsDecode = vim.json.decode(env.CAD_SETTINGS) },
  }, { bufnr = bufnr })
  local client
  vim.wait(timeout, function()
    client = id and vim.lsp.get_client_by_id(id)
    return client ~= nil and client.initialized == true
  end, 50)
  if not (client and client.initialized) then
    return finish(false, "the server did not attach/initialize")
  end

  local answer
  local arg = {
    uri = vim.uri_from_bufnr(bufnr),
    version = vim.lsp.util.buf_versions[bufnr],
    instruction = env.CAD_INSTRUCTION,
  }
  client:request("workspace/executeCommand", { command = "copyAsDecode.edit", arguments = { arg } },
    function(e, result)
      answer = { err = e, result = result }
    end, bufnr)
  if not vim.wait(timeout, function()
    return answer ~= nil
  end, 20) then
    return finish(false, "the edit did not finish in time")
  end
  if answer.err then
    return finish(false, "the server answered with an error: " .. vim.inspect(answer.err))
  end
  vim.wait(300) -- a message the server sends with its answer
  report.result, report.status = answer.result, answer.result and answer.result.status
  report.text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n") .. "\n"
  finish(true, "status " .. tostring(report.status))
end)
if not ok then
  finish(false, "error: " .. tostring(err))
end
