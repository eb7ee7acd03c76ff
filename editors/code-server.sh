#!/usr/bin/env bash
# code-server.sh - the fuzzbox VS Code extension in a real VS Code: builds
# fuzzbox, runs the extension's unit tests, packages the .vsix, installs it
# into code-server 4.100.3 (VS Code 1.100.3), opens a copy of
# lsp/testdata/planted and drives the UI with Debian's chromium
# (vscode/test/ui/drive.js): lenses, fuzz, progress, failure, open reproducer,
# rerun, a typed entry's values (a copy of lsp/testdata/typedmod); then the Test Explorer on a second copy (vscode/test/ui/testing.js):
# items and children, the Fuzz profile live and stopped, the generated
# corpus on request, a failure at its line, the coverage gutter, Delve
# stopped at the panic (Debug profile and debug lens); then runs the
# extension's integration suite inside the extension host in proxy mode
# against gopls (vscode/test/integration). Screenshots and logs go to $OUT
# (default editors/out).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
EDITORS_CACHE=${EDITORS_CACHE:-/var/cache/fuzzbox-editors}
OUT=${OUT:-$HERE/out}
PORT=${PORT:-8391}
CS=$OUT/code-server
mkdir -p "$OUT/bin"
rm -rf "$CS" "$OUT/screenshots" "$OUT/ws" "$OUT/ws-proxy" "$OUT/ws-testing" "$OUT/ws-typed"

echo "--- go build ./cmd/fuzzbox"
(cd "$REPO" && go build -o "$OUT/bin/fuzzbox" ./cmd/fuzzbox)

echo "--- editors/vscode: npm ci, npm test, vsce package"
cd "$HERE/vscode"
npm ci --no-audit --no-fund --loglevel=error
npm test
"$EDITORS_CACHE/tools/node_modules/.bin/vsce" package --skip-license -o "$OUT/fuzzbox.vsix" | tail -1

# the workspace: the planted module, with the extension pointed at this fuzzbox
cp -r "$REPO/lsp/testdata/planted" "$OUT/ws"
mkdir -p "$OUT/ws/.vscode"
cat >"$OUT/ws/.vscode/settings.json" <<JSON
{ "fuzzbox.path": "$OUT/bin/fuzzbox", "fuzzbox.fuzzTime": "3m", "fuzzbox.parallel": 2 }
JSON

# a module with a typed fuzz test (package typed from this repository)
cp -r "$REPO/lsp/testdata/typedmod" "$OUT/ws-typed"
printf 'module example.com/typedmod\n\ngo 1.26\n\nrequire github.com/fuzzbox/fuzzbox v0.0.0\n\nreplace github.com/fuzzbox/fuzzbox => %s\n' "$REPO" >"$OUT/ws-typed/go.mod"
mkdir -p "$OUT/ws-typed/.vscode"
cp "$OUT/ws/.vscode/settings.json" "$OUT/ws-typed/.vscode/"

# code-server's config and state stay in $CS (not $HOME), and so does the
# generated corpus of the fuzz runs (the user cache dir); Go's build cache stays.
export GOCACHE=${GOCACHE:-$(go env GOCACHE)}
export XDG_CONFIG_HOME=$CS/xdg-config XDG_DATA_HOME=$CS/xdg-data XDG_CACHE_HOME=$CS/xdg-cache
cs_bin=$EDITORS_CACHE/code-server/node_modules/.bin/code-server
CS_ARGS=(--user-data-dir "$CS/user-data" --extensions-dir "$CS/extensions")
"$cs_bin" "${CS_ARGS[@]}" --force --install-extension "$OUT/fuzzbox.vsix" 2>&1 | grep -v 'Wrote default config' || true
"$cs_bin" "${CS_ARGS[@]}" --list-extensions --show-versions | grep '^fuzzbox.fuzzbox@'
mkdir -p "$CS/user-data/User"
cat >"$CS/user-data/User/settings.json" <<'JSON'
{
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "workbench.tips.enabled": false,
  "editor.codeLens": true,
  "window.restoreWindows": "none",
  "git.enabled": false,
  "editor.minimap.enabled": false,
  "testing.automaticallyOpenPeekView": "failureAnywhere"
}
JSON

echo "--- code-server on 127.0.0.1:$PORT"
if curl -s -m 2 "http://127.0.0.1:$PORT/healthz" >/dev/null; then echo "port $PORT is taken; set PORT"; exit 1; fi
# setsid: its own process group, so the stop below ends exactly what started here;
# nice -n -10: code-server's parent waits only 10 s for its child on a loaded machine.
setsid nice -n -10 "$cs_bin" --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry \
	--disable-update-check --disable-workspace-trust --disable-getting-started-override \
	"${CS_ARGS[@]}" "$OUT/ws" >"$OUT/code-server.log" 2>&1 &
CS_PID=$!
stop_cs() { kill -TERM -- "-$CS_PID" 2>/dev/null || true; wait "$CS_PID" 2>/dev/null || true; }
trap stop_cs EXIT
for _ in $(seq 1 120); do
	curl -s -m 2 "http://127.0.0.1:$PORT/healthz" >/dev/null && break
	kill -0 "$CS_PID" 2>/dev/null || { cat "$OUT/code-server.log"; echo "code-server died"; exit 1; }
	sleep 1
done

echo "--- drive the UI (screenshots in $OUT/screenshots)"
CS_URL=http://127.0.0.1:$PORT WS=$OUT/ws TYPED_WS=$OUT/ws-typed SHOTS=$OUT/screenshots PW_CORE=$EDITORS_CACHE/tools/node_modules/playwright-core \
	nice -n -10 node "$HERE/vscode/test/ui/drive.js"
echo "--- the Test Explorer, coverage and Delve (screenshots testing-*.png)"
cp -r "$REPO/lsp/testdata/planted" "$OUT/ws-testing"
mkdir -p "$OUT/ws-testing/.vscode"
cat >"$OUT/ws-testing/.vscode/settings.json" <<JSON
{ "fuzzbox.path": "$OUT/bin/fuzzbox", "fuzzbox.fuzzTime": "3m", "fuzzbox.parallel": 2, "fuzzbox.dlvPath": "$EDITORS_CACHE/bin/dlv" }
JSON
CS_URL=http://127.0.0.1:$PORT WS=$OUT/ws-testing SHOTS=$OUT/screenshots PW_CORE=$EDITORS_CACHE/tools/node_modules/playwright-core \
	GENERATED=$XDG_CACHE_HOME/fuzzbox/fuzz/example.com/planted/FuzzLength nice -n -10 node "$HERE/vscode/test/ui/testing.js"
echo "--- extension integration tests in the extension host, proxy mode (gopls behind fuzzbox)"
cp -r "$REPO/lsp/testdata/planted" "$OUT/ws-proxy"
mkdir -p "$OUT/ws-proxy/.vscode"
# the Go extension's settings of test runs (go.buildTags, go.testFlags, go.testEnvVars) and a fuzz test that needs them
cat >"$OUT/ws-proxy/.vscode/settings.json" <<JSON
{ "fuzzbox.path": "$OUT/bin/fuzzbox", "fuzzbox.mode": "proxy", "fuzzbox.goplsPath": "$EDITORS_CACHE/bin/gopls",
  "go.buildTags": "special", "go.testFlags": ["-v", "-count=1", "-short", "-ldflags=-X example.com/planted.e2eMode=ldflags", "-args", "-e2eflag=yes"],
  "go.testEnvVars": { "FUZZBOX_E2E_VAR": "\${workspaceFolder}/x" } }
JSON
cat >"$OUT/ws-proxy/tagged_test.go" <<'GO'
//go:build special

package planted

import (
	"flag"
	"os"
	"testing"
)

var e2eFlag = flag.String("e2eflag", "", "set by go.testFlags' -args")

var e2eMode = "off" // set by go.testFlags' -ldflags

func FuzzTagged(f *testing.F) {
	f.Add("x")
	f.Fuzz(func(t *testing.T, s string) {
		t.Fatalf("fuzzbox-e2e: short=%v var=%s flag=%s mode=%s", testing.Short(), os.Getenv("FUZZBOX_E2E_VAR"), *e2eFlag, e2eMode)
	})
}
GO
CS_URL=http://127.0.0.1:$PORT WS=$OUT/ws-proxy EXT_DEV=$HERE/vscode PW_CORE=$EDITORS_CACHE/tools/node_modules/playwright-core \
	nice -n -10 node "$HERE/vscode/test/integration/run.js"
echo "--- a deliberately failing suite must fail"
if CS_URL=http://127.0.0.1:$PORT WS=$OUT/ws-proxy EXT_DEV=$HERE/vscode EXT_TESTS=$HERE/vscode/test/integration/failing.js \
	PW_CORE=$EDITORS_CACHE/tools/node_modules/playwright-core TIMEOUT_S=120 node "$HERE/vscode/test/integration/run.js" >"$OUT/failing-suite.log" 2>&1; then
	cat "$OUT/failing-suite.log"
	echo "FAIL: the failing suite reported success"
	exit 1
fi
grep 'exit code' "$OUT/failing-suite.log"

stop_cs
sleep 1
if pgrep -af "$OUT/bin/fuzzbox" ; then
	echo "FAIL: fuzzbox processes left after code-server stopped"
	exit 1
fi
if pgrep -af "$EDITORS_CACHE/bin/dlv" ; then
	echo "FAIL: dlv processes left after code-server stopped"
	exit 1
fi
