#!/usr/bin/env bash
# neovim.sh - fuzzbox lsp in Debian's Neovim 0.7.2, headless (neovim/test.lua):
# lenses of a fuzz test and of a corpus file, "run seeds" and "rerun this input",
# the coverage gaps as the quickfix list and signs and the Delve command line of
# an entry (through neovim/fuzzbox.lua, what users copy). Then the picture of
# docs/editors/neovim-coverage-gaps.png: Neovim with a screen in a tmux pane
# (neovim/picture.lua), :FuzzGaps typed into it, the pane captured with its
# colours (tmux capture-pane -e), turned into HTML (aha) and rendered by
# Debian's chromium into $OUT/screenshots/neovim-coverage-gaps.png.
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

echo "--- Neovim with a screen (tmux): :FuzzGaps FuzzParse, the picture"
SHOTS=$OUT/screenshots
mkdir -p "$SHOTS"
sock=fuzzbox-nvim-$$
ready=$OUT/nvim-picture.ready
rm -f "$ready"
tmux -L "$sock" -f /dev/null start-server \; set -g default-terminal screen-256color \; new-session -d -x 100 -y 30 \
	"cd '$OUT/nvim-ws' && FUZZBOX='$OUT/bin/fuzzbox' READY='$ready' nvim --clean -c 'luafile $HERE/neovim/picture.lua' parse_test.go"
stop_tmux() { tmux -L "$sock" kill-server 2>/dev/null || true; }
trap stop_tmux EXIT
screen() { tmux -L "$sock" capture-pane -p -t 0 "$@"; }
waitscreen() { # waitscreen TEXT: wait until the pane shows TEXT
	for _ in $(seq 1 "${2:-600}"); do screen | grep -qF -- "$1" && return 0; sleep 0.5; done
	screen; echo "FAIL: the Neovim screen does not show: $1"; exit 1
}
for _ in $(seq 1 120); do [ -f "$ready" ] && break; sleep 0.5; done
[ -f "$ready" ] || { screen; echo "FAIL: fuzzbox lsp did not start in Neovim"; exit 1; }
tmux -L "$sock" send-keys -t 0 ':FuzzGaps FuzzParse' Enter
waitscreen '|8-9 col 3| FuzzParse never reaches this (2 statements)' # the coverage replay: seconds
tmux -L "$sock" send-keys -t 0 Enter # on the quickfix line: parse.go at line 8, its signs
waitscreen 'var table []int' 60
sleep 1
screen >"$OUT/nvim-screen.txt"
grep -E '^▌' "$OUT/nvim-screen.txt" | sed 's/^/sign: /'
[ "$(grep -cE '^▌ +(var table|return table\[len)' "$OUT/nvim-screen.txt")" = 2 ] ||
	{ cat "$OUT/nvim-screen.txt"; echo "FAIL: no FuzzGap signs on parse.go lines 8-9"; exit 1; }
{
	echo '<!DOCTYPE html><meta charset="utf-8"><style>body{margin:0;background:#000}pre{margin:8px;font:15px/1.3 "DejaVu Sans Mono",monospace;color:#ddd}</style><pre>'
	# aha draws bright colours with a CSS filter that also washes out their background: plain colours read better
	screen -e | aha --no-header | sed 's/filter: contrast(70%) brightness(190%);//g; s/color:dimgray;background-color:olive/color:black;background-color:gold/g'
	echo '</pre>'
} >"$OUT/nvim-screen.html"
rm -f "$ready"
tmux -L "$sock" send-keys -t 0 Escape ':qa!' Enter
for _ in $(seq 1 40); do tmux -L "$sock" has-session 2>/dev/null || break; sleep 0.5; done
stop_tmux
profile=$(mktemp -d)
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-background-networking \
	--disable-component-update --disable-sync --user-data-dir="$profile" --window-size=930,610 \
	--screenshot="$SHOTS/neovim-coverage-gaps.png" "file://$OUT/nvim-screen.html" 2>/dev/null
rm -rf "$profile"
ls -l "$SHOTS/neovim-coverage-gaps.png"
sleep 1
if pgrep -af "$OUT/bin/fuzzbox lsp"; then
	echo "FAIL: fuzzbox lsp left running after Neovim quit"
	exit 1
fi
