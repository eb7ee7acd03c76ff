#!/usr/bin/env bash
# arm64.sh - the engine's tests and end-to-end fuzzing runs, for real, on
# linux/arm64 under qemu-user (Debian's qemu-user-static, through
# binfmt_misc so that the worker processes the engine starts run emulated
# too). Called by .ci/run; README.md says what is tested where.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v qemu-aarch64-static >/dev/null 2>&1; then
	echo "--- installing qemu-user-static"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq qemu-user-static binfmt-support >/dev/null
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
	mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
	echo "arm64: qemu-aarch64 is not registered with binfmt_misc; cannot run arm64 binaries" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'package main\n\nimport ("fmt"; "runtime")\n\nfunc main() { fmt.Println(runtime.GOOS + "/" + runtime.GOARCH) }\n' >"$tmp/main.go"
(cd "$tmp" && GOARCH=arm64 go build -o arch main.go)
got=$("$tmp/arch")
if [ "$got" != linux/arm64 ]; then
	echo "arm64: an arm64 binary says it runs on $got" >&2
	exit 1
fi
echo "--- linux/arm64 under qemu-user: the engine (coordinator and fake workers), shared memory, corpus, typed"
GOARCH=arm64 go test -count=1 -timeout=20m ./engine ./engine/ipc ./corpus ./typed
echo "--- linux/arm64 under qemu-user: the runtime's assembly comparison hooks (driver/build/rthooks.go) record"
go build -o "$tmp/fuzzbox" ./cmd/fuzzbox
GOARCH=arm64 go test -count=1 -tags fuzzbox -toolexec="$tmp/fuzzbox toolexec" ./engine/instrument
echo "--- linux/arm64 under qemu-user: fuzzing instrumented arm64 binaries end to end (driver)"
GOARCH=arm64 go test -count=1 -timeout=20m -run 'TestFuzzFailures/(FuzzPanic|FuzzTFatal|FuzzHang|FuzzDeadlock)$|TestFuzzSync$|TestFuzzCrashBuckets$' ./driver
