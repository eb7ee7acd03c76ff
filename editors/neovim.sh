#!/usr/bin/env bash
# neovim.sh - fuzzbox lsp in Debian's Neovim 0.7.2, headless (neovim/test.lua):
# lenses of a fuzz test and of a corpus file, "run seeds" and "rerun this input",
# the coverage gaps as the quickfix list and the Delve command line of an entry.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
OUT=${OUT:-$HERE/out}
dpkg -s neovim >/dev/null 2>&1 || bash "$HERE/install.sh"
nvim --version | sed -n 1p
mkdir -p "$OUT/bin"
(cd "$REPO" && go build -o "$OUT/bin/fuzzbox" ./cmd/fuzzbox)
rm -rf "$OUT/nvim-ws"
cp -r "$REPO/lsp/testdata/planted" "$OUT/nvim-ws"
FUZZBOX=$OUT/bin/fuzzbox timeout 300 nvim --headless --clean -c "luafile $HERE/neovim/test.lua" "$OUT/nvim-ws/parse_test.go" </dev/null
echo
if pgrep -af "$OUT/bin/fuzzbox lsp"; then
	echo "FAIL: fuzzbox lsp left running after Neovim quit"
	exit 1
fi
