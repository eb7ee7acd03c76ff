-- picture.lua - Neovim 0.7.2 with a screen (in a tmux pane: editors/neovim.sh)
-- and fuzzbox lsp, for docs/editors/neovim-coverage-gaps.png: it starts the
-- server on the workspace of the file given, loads fuzzbox.lua's commands
-- and writes $READY; neovim.sh then types :FuzzGaps FuzzParse and Enter on
-- the quickfix line, as a person would, and captures the screen.
-- Usage: FUZZBOX=path READY=file nvim --clean -c 'luafile picture.lua' WS/parse_test.go
local ws = vim.fn.expand('%:p:h')
local id = vim.lsp.start_client({ name = 'fuzzbox', cmd = { os.getenv('FUZZBOX'), 'lsp' }, root_dir = ws,
  handlers = { ['window/logMessage'] = function() end, ['window/showMessage'] = function() end } })
vim.lsp.buf_attach_client(0, id)
local fuzzbox = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/fuzzbox.lua')
fuzzbox.setup()
vim.defer_fn(function()
  if vim.wait(30000, function() local c = vim.lsp.get_client_by_id(id); return c ~= nil and c.initialized == true end, 20) then
    vim.fn.writefile({ 'ready' }, os.getenv('READY'))
  end
end, 100)
