-- fuzzbox.lua - Neovim commands over the fuzzbox language server (fuzzbox lsp,
-- started as the client named "fuzzbox"), for Neovim 0.7 and later:
--   :FuzzGaps FuzzX   in the test file: the code FuzzX's corpus never reaches,
--                     as the quickfix list and signs (fuzzbox.coverageGaps)
--   :FuzzDebug        in a corpus file: the Delve command line of exactly that
--                     entry (fuzzbox.debugEntry)
-- Copy it into your config's lua/ folder and call require('fuzzbox').setup().
-- editors/neovim/test.lua and picture.lua use it as it is.
local M = {}

-- execute runs a fuzzbox command with one argument and returns its answer.
function M.execute(name, arg)
  for _, c in ipairs(vim.lsp.get_active_clients()) do
    if c.name == 'fuzzbox' then
      local r, err = c.request_sync('workspace/executeCommand', { command = name, arguments = { arg } }, 180000, 0)
      if not r then error(name .. ': ' .. tostring(err)) end
      if r.err then error(name .. ': ' .. r.err.message) end
      return r.result
    end
  end
  error('fuzzbox: the language server is not running')
end

-- gaps fills the quickfix list with the coverage gaps of fuzz test name
-- (declared in the current buffer) and marks their lines with the FuzzGap
-- sign; it returns the quickfix items.
function M.gaps(name)
  local gaps = M.execute('fuzzbox.coverageGaps', { uri = vim.uri_from_bufnr(0), name = name })
  vim.fn.sign_unplace('fuzzbox')
  local items = {}
  for _, g in ipairs(gaps) do
    local file = vim.uri_to_fname(g.uri)
    local buf = vim.fn.bufadd(file)
    vim.fn.bufload(buf)
    local last = g.endLine -- a block ending at its closing brace: not the brace's line
    if (vim.fn.getbufline(buf, last)[1] or ''):sub(1, g.endCol - 1):match('^%s*}?$') then last = math.max(last - 1, g.line) end
    table.insert(items, { filename = file, lnum = g.line, col = g.col, end_lnum = last, text = g.text })
    for l = g.line, last do
      vim.fn.sign_place(0, 'fuzzbox', 'FuzzGap', buf, { lnum = l })
    end
  end
  vim.fn.setqflist({}, ' ', { title = 'fuzzbox: coverage gaps of ' .. name, items = items })
  return items
end

-- debug_command returns the Delve command line of the corpus file in the current buffer.
function M.debug_command()
  return M.execute('fuzzbox.debugEntry', { uri = vim.uri_from_bufnr(0) }).commandLine
end

function M.setup()
  vim.fn.sign_define('FuzzGap', { text = '▌', texthl = 'DiagnosticError' })
  vim.api.nvim_create_user_command('FuzzGaps', function(o)
    M.gaps(o.args)
    vim.cmd('copen')
  end, { nargs = 1 })
  vim.api.nvim_create_user_command('FuzzDebug', function() print(M.debug_command()) end, {})
end

return M
