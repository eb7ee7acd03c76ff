#!/usr/bin/env bash
# install.sh - installs what the editor tests need, idempotently (fast when warm):
#   apt: chromium (headless browser for code-server), ripgrep (stands in for
#        @vscode/ripgrep's GitHub download), libkrb5-dev (code-server's kerberos
#        module), neovim (0.7.2, the Neovim test), tmux and aha (the Neovim
#        screenshot: a tmux pane as HTML, which chromium renders)
#   npm: code-server 4.100.3 (VS Code 1.100.3, the last release on Node 20),
#        playwright-core, @vscode/vsce 3.9.1 into $EDITORS_CACHE (kept between runs)
#   go:  gopls v0.23.0 (pinned; the proxy-mode tests run against it) and Delve
#        v1.27.2 (dlv dap, the extension's "debug this input") into $EDITORS_CACHE/bin
# Used by editors/ci.sh; see shared/notes/editors.md for why each step is needed.
set -euo pipefail
EDITORS_CACHE=${EDITORS_CACHE:-/var/cache/fuzzbox-editors}
CS_VERSION=4.100.3
GOPLS_VERSION=v0.23.0
DLV_VERSION=v1.27.2
mkdir -p "$EDITORS_CACHE"
npmq() { npm --no-audit --no-fund --loglevel=error "$@"; }

need=()
for p in chromium ripgrep libkrb5-dev neovim tmux aha g++ make python3; do
	dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	echo "--- apt-get install ${need[*]}"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# gopls, pinned, built through the module proxy; in the background (it is CPU
# bound, the npm installs below mostly wait on the network), joined at the end.
gopls_pid=
if [ "$("$EDITORS_CACHE/bin/gopls" version 2>/dev/null | awk '/golang.org\/x\/tools\/gopls/{print $2}')" != "$GOPLS_VERSION" ]; then
	echo "--- go install golang.org/x/tools/gopls@$GOPLS_VERSION (in the background)"
	(cd / && GOBIN=$EDITORS_CACHE/bin GOFLAGS=-mod=mod go install "golang.org/x/tools/gopls@$GOPLS_VERSION") &
	gopls_pid=$!
fi

dlv_pid=
if ! "$EDITORS_CACHE/bin/dlv" version 2>/dev/null | grep -q "^Version: ${DLV_VERSION#v}$"; then
	echo "--- go install github.com/go-delve/delve/cmd/dlv@$DLV_VERSION (in the background)"
	(cd / && GOBIN=$EDITORS_CACHE/bin GOFLAGS=-mod=mod go install "github.com/go-delve/delve/cmd/dlv@$DLV_VERSION") &
	dlv_pid=$!
fi

# code-server, in a local folder (not -g: the nested postinstall then overwrites the package).
CS_DIR=$EDITORS_CACHE/code-server
cs_bin=$CS_DIR/node_modules/.bin/code-server
if [ "$(XDG_CONFIG_HOME=$EDITORS_CACHE/xdg "$cs_bin" --version 2>/dev/null | awk '/with Code/{print $1}')" != "$CS_VERSION" ]; then
	echo "--- npm install code-server@$CS_VERSION"
	# @vscode/ripgrep's postinstall downloads rg from GitHub; it first looks in
	# $TMPDIR/vscode-ripgrep-cache-<version>/, so put Debian's rg there.
	tmp=$(mktemp -d)
	(cd "$tmp" && npm pack "code-server@$CS_VERSION" >/dev/null 2>&1 &&
		tar xzf code-server-*.tgz package/lib/vscode/npm-shrinkwrap.json)
	rgver=$(node -e 'const d=require(process.argv[1]);const p=d.packages["node_modules/@vscode/ripgrep"];console.log(p?p.version:"")' \
		"$tmp/package/lib/vscode/npm-shrinkwrap.json")
	if [ -n "$rgver" ]; then
		(cd "$tmp" && npm pack "@vscode/ripgrep@$rgver" >/dev/null 2>&1 && tar xzf vscode-ripgrep-*.tgz package/lib/postinstall.js)
		rgtag=$(sed -n "s/^const VERSION = '\(.*\)';/\1/p" "$tmp/package/lib/postinstall.js")
		cache=${TMPDIR:-/tmp}/vscode-ripgrep-cache-$rgver
		mkdir -p "$cache" "$tmp/rg"
		cp /usr/bin/rg "$tmp/rg/rg"
		tar czf "$cache/ripgrep-$rgtag-x86_64-unknown-linux-musl.tar.gz" -C "$tmp/rg" rg
	fi
	rm -rf "$tmp"
	mkdir -p "$CS_DIR"
	[ -f "$CS_DIR/package.json" ] || echo '{ "name": "code-server-host", "private": true }' >"$CS_DIR/package.json"
	# unsafe_perm: postinstall refuses root otherwise; yes: node-pty's npx node-gyp must not prompt.
	(cd "$CS_DIR" && npm_config_unsafe_perm=true npm_config_yes=true npmq install "code-server@$CS_VERSION")
fi

# playwright-core (drives Debian's chromium) and vsce (packages the .vsix).
TOOLS=$EDITORS_CACHE/tools
mkdir -p "$TOOLS"
if [ ! -f "$TOOLS/node_modules/playwright-core/package.json" ] || [ ! -x "$TOOLS/node_modules/.bin/vsce" ]; then
	echo "--- npm install playwright-core @vscode/vsce@3.9.1"
	[ -f "$TOOLS/package.json" ] || echo '{ "name": "fuzzbox-editor-tools", "private": true }' >"$TOOLS/package.json"
	(cd "$TOOLS" && npmq install playwright-core @vscode/vsce@3.9.1)
fi
if [ -n "$gopls_pid" ]; then
	wait "$gopls_pid" || { echo "go install gopls@$GOPLS_VERSION failed"; exit 1; }
fi
if [ -n "$dlv_pid" ]; then
	wait "$dlv_pid" || { echo "go install dlv@$DLV_VERSION failed"; exit 1; }
fi
echo "editor tools ready in $EDITORS_CACHE"
