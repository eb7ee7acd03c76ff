#!/usr/bin/env bash
# ci.sh - the editor tests, called by .ci/run: installs the tools (install.sh,
# cached in $EDITORS_CACHE), runs the proxy-mode tests against the pinned real
# gopls, the VS Code extension in code-server (code-server.sh, screenshots in
# editors/out/screenshots) and the headless Neovim test (neovim.sh).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
export EDITORS_CACHE=${EDITORS_CACHE:-/var/cache/fuzzbox-editors}
t0=$SECONDS
phase() { echo "--- editors: $* (at $((SECONDS - t0)) s)"; }
phase "install (cached in $EDITORS_CACHE)"
bash "$HERE/install.sh"
phase "proxy mode against gopls $("$EDITORS_CACHE/bin/gopls" version | awk '/gopls/{print $2; exit}')"
(cd "$HERE/.." && FUZZBOX_GOPLS=$EDITORS_CACHE/bin/gopls go test -count=1 -run 'Proxy' ./lsp/)
phase "VS Code (code-server)"
bash "$HERE/code-server.sh"
if [ -f "$HERE/neovim.sh" ]; then
	phase "Neovim"
	bash "$HERE/neovim.sh"
fi
echo "--- editors: done in $((SECONDS - t0)) s"
