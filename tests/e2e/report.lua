-- The JSON report the Neovim scripts write (tests/e2e/neovim.lua, neovim_stock.lua):
--   local log, finish = dofile(dir .. "report.lua")(name, report)
-- `log` keeps a line in report.log and prints it; `finish` sets report.ok and report.msg, writes the report to
-- $CAD_REPORT, stops the LSP clients and exits 0 or 1.
return function(name, report)
  local function log(msg)
    table.insert(report.log, msg)
    io.stderr:write("[" .. name .. "] " .. msg .. "\n")
  end

  local function finish(ok, msg)
    report.ok, report.msg = ok, msg
    log((ok and "ok: " or "FAILED: ") .. msg)
    local f = assert(io.open(vim.env.CAD_REPORT, "w"))
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

  return log, finish
end
