-- test.lua - fuzzbox lsp in Neovim 0.7.2's built-in client, headless: list the
-- code lenses of a fuzz test and of a corpus file, and run "run seeds" and
-- "rerun this input" the way a user does (vim.lsp.codelens.run, picking the lens
-- from the vim.ui.select list it shows when a line has several).
-- Then the commands any LSP client can use, through fuzzbox.lua (what users
-- copy): the coverage gaps of FuzzParse's corpus (fuzzbox.coverageGaps) as the
-- quickfix list and signs, and the Delve command line of a corpus file
-- (fuzzbox.debugEntry).
-- Usage (editors/neovim.sh): FUZZBOX=path/to/fuzzbox nvim --headless --clean -c 'luafile test.lua' WS/parse_test.go
local function out(s) io.stdout:write(s .. '\n') end
local function fail(msg) out('FAIL: ' .. msg); vim.cmd('cquit 1') end

local test_buf = vim.api.nvim_get_current_buf()
local ws = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(test_buf), ':p:h')
local v = vim.version()
out(string.format('nvim %d.%d.%d, workspace %s', v.major, v.minor, v.patch, ws))

local messages = {}
local client_id = vim.lsp.start_client({
  name = 'fuzzbox',
  cmd = { os.getenv('FUZZBOX'), 'lsp' },
  root_dir = ws,
  handlers = {
    ['window/showMessage'] = function(_, result) table.insert(messages, result.message); out('showMessage: ' .. result.message) end,
    ['window/logMessage'] = function() end,
  },
})
if not client_id then return fail('start_client failed') end
vim.lsp.buf_attach_client(test_buf, client_id)
if not vim.wait(10000, function()
  local c = vim.lsp.get_client_by_id(client_id); return c ~= nil and c.initialized == true
end, 20) then return fail('fuzzbox lsp did not initialize') end
out('initialized: commands ' .. table.concat(vim.lsp.get_client_by_id(client_id).server_capabilities.executeCommandProvider.commands, ' '))

-- lenses of the current buffer as "line: title | title"
local function lenses(bufnr, want)
  vim.lsp.codelens.refresh()
  if not vim.wait(20000, function()
    for _, l in ipairs(vim.lsp.codelens.get(bufnr)) do
      if l.command and l.command.title:find(want, 1, true) then return true end
    end
    return false
  end, 50) then return nil end
  local shown = {}
  for _, l in ipairs(vim.lsp.codelens.get(bufnr)) do
    table.insert(shown, string.format('line %d: %s', l.range.start.line + 1, l.command.title))
  end
  return shown
end

-- run the lens titled want: cursor on its line, :lua vim.lsp.codelens.run(), choose it
local function run_lens(bufnr, want)
  for _, l in ipairs(vim.lsp.codelens.get(bufnr)) do
    if l.command.title:find(want, 1, true) == 1 then
      vim.api.nvim_win_set_cursor(0, { l.range.start.line + 1, 0 })
      local select = vim.ui.select
      vim.ui.select = function(items, opts, on_choice)
        for i, item in ipairs(items) do
          if opts.format_item(item):find(want, 1, true) == 1 then return on_choice(item, i) end
        end
        on_choice(nil, nil)
      end
      vim.lsp.codelens.run()
      vim.ui.select = select
      return true
    end
  end
  return false
end

local function wait_message(sub)
  return vim.wait(120000, function()
    for _, m in ipairs(messages) do
      if m:find(sub, 1, true) then return true end
    end
    return false
  end, 50)
end

-- 1) the fuzz test: its lenses, and "run seeds"
local shown = lenses(test_buf, 'run seeds')
if not shown then return fail('no "run seeds" lens on parse_test.go') end
out('lenses of parse_test.go: ' .. table.concat(shown, '; '))
if not run_lens(test_buf, 'run seeds') then return fail('cannot run "run seeds"') end
if not wait_message('FuzzParse: pass') then return fail('"run seeds" did not pass: ' .. vim.inspect(messages)) end

-- 2) a corpus file with a crashing input: its lenses, and "rerun this input"
local crash = ws .. '/testdata/fuzz/FuzzParse/crash1'
vim.fn.writefile({ 'go test fuzz v1', 'string("FUZZ!")' }, crash)
vim.cmd('edit ' .. crash)
local entry_buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(entry_buf, client_id)
shown = lenses(entry_buf, 'rerun this input')
if not shown then return fail('no "rerun this input" lens on ' .. crash) end
out('lenses of testdata/fuzz/FuzzParse/crash1: ' .. table.concat(shown, '; '))
if not run_lens(entry_buf, 'rerun this input') then return fail('cannot run "rerun this input"') end
if not wait_message('FuzzParse/crash1: panic failure') then return fail('"rerun this input" did not report the panic: ' .. vim.inspect(messages)) end

-- 3) back on the fuzz test: the failure's "open reproducer" lens
vim.cmd('buffer ' .. test_buf)
shown = lenses(test_buf, 'open reproducer')
if not shown then return fail('no "open reproducer" lens after the failure') end
out('lenses of parse_test.go after the failure: ' .. table.concat(shown, '; '))

-- 4) the coverage gaps of the corpus as the quickfix list and signs, with :FuzzGaps of
-- fuzzbox.lua (the crashing entry's coverage does not count)
local fuzzbox = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/fuzzbox.lua')
fuzzbox.setup()
local ok, err = pcall(vim.cmd, 'FuzzGaps FuzzParse')
if not ok then return fail(':FuzzGaps FuzzParse: ' .. tostring(err)) end
local qf = vim.fn.getqflist()
local lines = {}
for _, q in ipairs(qf) do
  table.insert(lines, string.format('%s:%d:%d: %s', vim.fn.fnamemodify(vim.fn.bufname(q.bufnr), ':t'), q.lnum, q.col, q.text))
end
out('quickfix (' .. vim.fn.getqflist({ title = 1 }).title .. '): ' .. table.concat(lines, ' | '))
if #qf ~= 1 or lines[1] ~= 'parse.go:8:3: FuzzParse never reaches this (2 statements)' then
  return fail('coverage gaps: want parse.go:8:3 only, got ' .. vim.inspect(lines))
end
local signs = {}
for _, sg in ipairs(vim.fn.sign_getplaced(ws .. '/parse.go', { group = 'fuzzbox' })[1].signs) do
  table.insert(signs, sg.name .. '@' .. sg.lnum)
end
table.sort(signs)
out('signs in parse.go: ' .. table.concat(signs, ' '))
if table.concat(signs, ' ') ~= 'FuzzGap@8 FuzzGap@9' then return fail('signs: want FuzzGap@8 FuzzGap@9, got ' .. vim.inspect(signs)) end
vim.cmd('cclose')

-- 5) the Delve command line of a corpus file (fuzzbox.lua's :FuzzDebug)
vim.cmd('buffer ' .. entry_buf)
local info
ok, info = pcall(fuzzbox.debug_command)
if not ok then return fail('fuzzbox.debugEntry: ' .. tostring(info)) end
out('debug crash1: ' .. info)
if info ~= 'cd ' .. ws .. " && dlv test . -- '-test.run=^FuzzParse$/^crash1$'" then
  return fail('debug command line: ' .. info)
end

vim.lsp.stop_client(client_id)
if not vim.wait(10000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20) then
  return fail('fuzzbox lsp did not stop')
end
out('neovim test: PASS')
vim.cmd('qall!')
