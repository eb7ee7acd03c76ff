#!/usr/bin/env bash
# arm64.sh - the engine's tests and end-to-end fuzzing runs, for real, on
# linux/arm64 under qemu-user (QEMU 10 from bookworm-backports, through
# binfmt_misc so that the worker processes the engine starts run emulated
# too). Called by .ci/run; README.md says what is tested where.
set -euo pipefail
cd "$(dirname "$0")/.."
# QEMU 7.2 (bookworm's) can deadlock a multithreaded guest's fork before its
# exec: a Go program starting a process then waits for ever (golang/go#70329;
# seen in CI as a fuzzing binary whose new worker never came, and here as a
# fuzzbox whose child hung in futex_wait with two qemu threads). QEMU 10 from
# bookworm-backports is the emulator the arm64 runs are meant for; bookworm's
# is used only if backports cannot be reached, and the run says so.
qemu_major() { qemu-aarch64 --version 2>/dev/null | sed -n 's/^qemu-aarch64 version \([0-9]*\).*/\1/p'; }
if [ "$(qemu_major)" = "" ] || [ "$(qemu_major)" -lt 8 ]; then
	echo "--- installing qemu-user from bookworm-backports"
	export DEBIAN_FRONTEND=noninteractive
	printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		>/etc/apt/sources.list.d/fuzzbox-backports.sources
	if ! { apt-get update -qq && apt-get install -y -qq -t bookworm-backports qemu-user qemu-user-binfmt >/dev/null; }; then
		echo "arm64: warning: qemu-user from bookworm-backports did not install; bookworm's QEMU 7.2 can hang a fork (golang/go#70329)" >&2
		rm -f /etc/apt/sources.list.d/fuzzbox-backports.sources
		apt-get update -qq
		apt-get install -y -qq qemu-user-static binfmt-support >/dev/null
	fi
fi
echo "--- $(qemu-aarch64 --version 2>/dev/null | head -1 || qemu-aarch64-static --version | head -1)"
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
	mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
# Register the installed emulator. An entry left by an older QEMU (flag F)
# keeps running that binary even after the package replaced it, so it is
# removed first.
if [ -f /usr/lib/binfmt.d/qemu-aarch64.conf ]; then
	if [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
		echo -1 >/proc/sys/fs/binfmt_misc/qemu-aarch64
	fi
	grep -v '^#' /usr/lib/binfmt.d/qemu-aarch64.conf >/proc/sys/fs/binfmt_misc/register
else
	update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
fi
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
# qemu_test runs a go test command, and again, up to twice, each time it
# timed out with a process's fork stuck before its exec (a goroutine in
# syscall.forkExec): QEMU can deadlock a multithreaded guest's fork
# (golang/go#70329), with QEMU 10.0.2 too (once, in the engine's
# TestStrayGoroutineFailure, on 2026-12-06; twice in a row, in the driver's
# TestFuzzSync and then TestFuzzCrashBuckets, on 2026-12-07). Any other
# failure fails the run. The timeouts are two to three times a run's time
# here (the engine 282 s, the driver's runs 90 s), so that a hung fork costs
# CI minutes, not the 20 of the old timeout (CI's full run took 4,002 s on
# 2026-12-06, 2,817 before).
qemu_test() {
	local try
	for try in 1 2 3; do
		if "$@" 2>&1 | tee "$tmp/gotest.log"; then
			return 0
		fi
		if ! grep -q "panic: test timed out" "$tmp/gotest.log" || ! grep -q "^syscall.forkExec" "$tmp/gotest.log"; then
			return 1
		fi
		echo "arm64: a fork under qemu-user hung before its exec (golang/go#70329), try $try of 3" >&2
	done
	return 1
}
echo "--- linux/arm64 under qemu-user: the engine (coordinator and fake workers), shared memory, corpus, typed"
qemu_test env GOARCH=arm64 go test -count=1 -timeout=12m ./engine ./engine/ipc ./corpus ./typed
echo "--- linux/arm64 under qemu-user: the runtime's assembly comparison hooks (driver/build/rthooks.go) record"
go build -o "$tmp/fuzzbox" ./cmd/fuzzbox
GOARCH=arm64 go test -count=1 -tags fuzzbox -toolexec="$tmp/fuzzbox toolexec" ./engine/instrument
echo "--- linux/arm64 under qemu-user: fuzzing instrumented arm64 binaries end to end (driver)"
qemu_test env GOARCH=arm64 go test -count=1 -timeout=5m -run 'TestFuzzFailures/(FuzzPanic|FuzzTFatal|FuzzHang|FuzzDeadlock)$|TestFuzzSync$|TestFuzzCrashBuckets$' ./driver
