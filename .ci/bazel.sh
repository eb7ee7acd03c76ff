#!/usr/bin/env bash
# .ci/bazel.sh: the Bazel checks of the fuzzbox rules (rules/, docs/bazel.md).
#
# Installs, on a fresh Debian bookworm machine with only apt and the Go module
# proxy reachable, Bazel 4.2.3 (Debian's bazel-bootstrap), rules_go v0.34.0
# (from the Go module proxy, patched for Go >= 1.20: .ci/bazel/*.patch), a Go
# SDK prepared for it, golang.org/x/{tools,mod,sync} with BUILD files (for nogo
# and fuzzvet), and stub repositories for what Bazel 4 would download. Then it
# runs, in examples/bazel (a workspace that uses @fuzzbox//rules:defs.bzl as a
# user would), the replay, fuzzing, slow seed, typed, instrument_deps, run, sharding, corpus, merge and nogo checks.
#
# Everything is cached in $FUZZBOX_BAZEL_CACHE (default /var/cache/fuzzbox-bazel):
# a warm run only runs Bazel. Usage: .ci/bazel.sh [install]   ("install": stop
# after installing and writing examples/bazel/offline.bazelrc).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=${FUZZBOX_BAZEL_CACHE:-/var/cache/fuzzbox-bazel}
GO=${GO:-go}
GO_VERSION=$("$GO" env GOVERSION)          # e.g. go1.26.8: the SDK Bazel builds with
GO_VERSION=${GO_VERSION#go}
RULES_GO_VERSION=v0.34.0                  # newest rules_go whose .bzl files load on Bazel 4.2.3
RULES_GO_DIR=$CACHE/deps/rules_go-$RULES_GO_VERSION
SDK_DIR=$CACHE/sdk/go$GO_VERSION
EXAMPLE=$ROOT/examples/bazel
T0=$(date +%s)
step() { echo "=== [$(( $(date +%s) - T0 ))s] $*"; }
mkdir -p "$CACHE/deps" "$CACHE/sdk"

# ------------------------------------------------------------------ install

install_bazel() {
	local pkgs="bazel-bootstrap bazel-skylib bazel-platforms bazel-rules-java patch zip unzip"
	if dpkg -s $pkgs >/dev/null 2>&1; then
		step "bazel: Debian packages already installed"
		return
	fi
	step "bazel: apt-get install $pkgs"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null
}

# moddir MODULE@VERSION prints the module's directory in the module cache,
# downloading it through the Go module proxy.
moddir() {
	(cd "$ROOT" && GOFLAGS=-mod=mod "$GO" mod download -json "$1" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
}

# The patches' hash names the prepared copy, so editing a patch re-prepares it.
prepare_rules_go() {
	local stamp
	stamp=$(cat .ci/bazel/rules_go-v0.34.0.patch .ci/bazel/nogo-x-tools.patch | sha256sum | cut -c1-16)
	if [ -f "$RULES_GO_DIR/.fuzzbox-$stamp" ]; then
		step "rules_go $RULES_GO_VERSION already prepared"
		return
	fi
	step "rules_go $RULES_GO_VERSION: fetch from the Go module proxy and patch"
	local src
	src=$(moddir github.com/bazelbuild/rules_go@$RULES_GO_VERSION)
	rm -rf "$RULES_GO_DIR.tmp"
	cp -r "$src" "$RULES_GO_DIR.tmp"
	chmod -R u+w "$RULES_GO_DIR.tmp"
	# Module zips drop exec bits.
	find "$RULES_GO_DIR.tmp" -type f \( -name '*.sh' -o -name '*.py' \) -exec chmod +x {} +
	# Go >= 1.20: compile -p main, GODEBUG=installgoroot=all, go.env in go_local_sdk;
	# plus a backport of //go/config:gc_goopts (upstream since v0.36).
	patch -s -d "$RULES_GO_DIR.tmp" -p1 <.ci/bazel/rules_go-v0.34.0.patch
	# nogo against a current golang.org/x/tools (facts moved to internal/facts).
	patch -s -d "$RULES_GO_DIR.tmp" -p1 <.ci/bazel/nogo-x-tools.patch
	touch "$RULES_GO_DIR.tmp/.fuzzbox-$stamp"
	rm -rf "$RULES_GO_DIR"
	mv "$RULES_GO_DIR.tmp" "$RULES_GO_DIR"
}

prepare_sdk() {
	if [ -f "$SDK_DIR/.fuzzbox-ready" ]; then
		step "Go $GO_VERSION SDK already prepared"
		return
	fi
	step "Go $GO_VERSION SDK: fetch golang.org/toolchain and prepare it for rules_go 0.34"
	local src
	src=$(moddir golang.org/toolchain@v0.0.1-go$GO_VERSION.linux-amd64)
	rm -rf "$SDK_DIR.tmp"
	cp -r "$src" "$SDK_DIR.tmp"
	chmod -R u+w "$SDK_DIR.tmp"
	chmod +x "$SDK_DIR.tmp"/bin/* "$SDK_DIR.tmp"/pkg/tool/linux_amd64/*
	# rules_go 0.34 wants the standard library's .a files in GOROOT/pkg.
	(cd "$SDK_DIR.tmp" && env -u GOFLAGS GOROOT="$SDK_DIR.tmp" GOTOOLCHAIN=local \
		GODEBUG=installgoroot=all "$SDK_DIR.tmp/bin/go" install std)
	# Go >= 1.25 ships no prebuilt pack; rules_go 0.34's builder runs it.
	if [ ! -x "$SDK_DIR.tmp/pkg/tool/linux_amd64/pack" ]; then
		(cd "$SDK_DIR.tmp" && env -u GOFLAGS GOROOT="$SDK_DIR.tmp" GOTOOLCHAIN=local \
			"$SDK_DIR.tmp/bin/go" build -o "$SDK_DIR.tmp/pkg/tool/linux_amd64/pack" cmd/pack)
	fi
	touch "$SDK_DIR.tmp/.fuzzbox-ready"
	rm -rf "$SDK_DIR"
	mv "$SDK_DIR.tmp" "$SDK_DIR"
}

# Gazelle is only loaded (go_repository for golang.org/x/tools in the example's
# WORKSPACE), never run: that repository is overridden with the prepared copy.
prepare_gazelle() {
	local dir=$CACHE/deps/bazel-gazelle-v0.26.0
	if [ -f "$dir/.fuzzbox-ready" ]; then
		step "bazel-gazelle v0.26.0 already prepared"
		return
	fi
	step "bazel-gazelle v0.26.0: fetch from the Go module proxy"
	local src
	src=$(moddir github.com/bazelbuild/bazel-gazelle@v0.26.0)
	rm -rf "$dir.tmp"
	cp -r "$src" "$dir.tmp"
	chmod -R u+w "$dir.tmp"
	# Debian's bazel-skylib 1.0.3 lacks what this test-suite macro loads.
	sed -i '/gazelle_binary_test_suite()/d; /load(":gazelle_binary_test.bzl"/d' "$dir.tmp/internal/BUILD.bazel"
	touch "$dir.tmp/.fuzzbox-ready"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
}

prepare_stubs() {
	# Bazel 4's @bazel_tools loads @rules_cc//cc:defs.bzl; the real one is a download.
	local d=$CACHE/deps/rules_cc
	mkdir -p "$d/cc"
	echo 'workspace(name = "rules_cc")' >"$d/WORKSPACE"
	: >"$d/cc/BUILD"
	{
		echo '"""Offline stand-in for rules_cc: forwards to Bazel 4'"'"'s native C++ rules."""'
		for r in cc_binary cc_import cc_library cc_proto_library cc_test cc_toolchain cc_toolchain_suite objc_library; do
			printf '\ndef %s(**kwargs):\n    native.%s(**kwargs)\n' "$r" "$r"
		done
	} >"$d/cc/defs.bzl"
	# Every test rule depends on @remote_coverage_tools (a download).
	d=$CACHE/deps/remote_coverage_tools
	mkdir -p "$d"
	echo 'workspace(name = "remote_coverage_tools")' >"$d/WORKSPACE"
	printf '#!/bin/sh\necho "bazel coverage is not available offline" >&2\nexit 1\n' >"$d/unavailable.sh"
	chmod +x "$d/unavailable.sh"
	cat >"$d/BUILD" <<-'EOF'
		package(default_visibility = ["//visibility:public"])

		sh_binary(name = "coverage_report_generator", srcs = ["unavailable.sh"])

		sh_binary(name = "lcov_merger", srcs = ["unavailable.sh"])
	EOF
}

# Go repositories of fuzzbox's external imports (golang.org/x/tools for nogo,
# the analyzers and the commands, its own dependencies, jsonrpc2 for the LSP
# sidecar) at fuzzbox's go.mod versions, with BUILD files written from go list
# (gazelle's naming: @org_golang_x_tools//go/analysis, plus the
# :go_default_library aliases rules_go 0.34's own BUILD files use).
prepare_go_repos() {
	local stamp
	stamp=$( (cat go.sum "$EXAMPLE/go.sum"; sed -n '/^prepare_go_repos/,/^}/p' "$0") | sha256sum | cut -c1-16)
	if [ -f "$CACHE/deps/go-repos-$stamp" ]; then
		step "Go repositories already prepared: $(cat "$CACHE/deps/go-repos.list" | tr '\n' ' ')"
		return
	fi
	step "Go repositories of fuzzbox's imports and the example's: BUILD files from go list"
	GOFLAGS=-mod=mod "$GO" mod download
	local lines
	lines=$(GOFLAGS=-mod=mod "$GO" list -deps -f \
		'{{if .Module}}{{.Module.Path}}|{{.Module.Dir}}|{{.ImportPath}}|{{.Dir}}|{{join .GoFiles " "}}|{{join .Imports " "}}|{{join .EmbedFiles " "}}{{end}}' \
		./analyzers/... ./cmd/... ./lsp/... golang.org/x/tools/internal/facts golang.org/x/tools/go/gcexportdata |
		grep -v '^github.com/fuzzbox/fuzzbox|')
	# The example workspace's own third-party modules (its WORKSPACE's
	# go_repository rules), those fuzzbox does not import.
	local have
	have=$(echo "$lines" | cut -d'|' -f1 | sort -u)
	lines+=$'\n'$(cd "$EXAMPLE" && GOFLAGS=-mod=mod "$GO" list -deps -f \
		'{{if .Module}}{{.Module.Path}}|{{.Module.Dir}}|{{.ImportPath}}|{{.Dir}}|{{join .GoFiles " "}}|{{join .Imports " "}}|{{join .EmbedFiles " "}}{{end}}' ./... |
		HAVE=$have awk -F'|' 'BEGIN { n = split(ENVIRON["HAVE"], m, "\n"); for (i = 1; i <= n; i++) skip[m[i]] = 1 }
			$1 != "example.com/fuzzbox-bazel-example" && $1 != "github.com/fuzzbox/fuzzbox" && !($1 in skip)')
	local mod mdir ip dir files imports embeds repo
	rm -f "$CACHE/deps/go-repos.list"
	for mod in $(echo "$lines" | cut -d'|' -f1 | sort -u); do
		repo=$(go_repo_name "$mod")
		mdir=$(echo "$lines" | awk -F'|' -v m="$mod" '$1==m {print $2; exit}')
		rm -rf "$CACHE/deps/$repo"
		cp -r "$mdir" "$CACHE/deps/$repo"
		chmod -R u+w "$CACHE/deps/$repo"
		find "$CACHE/deps/$repo" -name 'BUILD' -o -name 'BUILD.bazel' | xargs -r rm -f
		echo "workspace(name = \"$repo\")" >"$CACHE/deps/$repo/WORKSPACE"
		touch "$CACHE/deps/$repo/BUILD.bazel"
		echo "$repo" >>"$CACHE/deps/go-repos.list"
	done
	while IFS='|' read -r mod mdir ip dir files imports embeds; do
		[ -n "$mod" ] || continue
		repo=$(go_repo_name "$mod")
		local rel=${ip#"$mod"} name
		rel=${rel#/}
		name=${rel##*/}
		name=${name:-${mod##*/}}
		{
			echo 'load("@io_bazel_rules_go//go:def.bzl", "go_library")'
			echo
			echo 'go_library('
			echo "    name = \"$name\","
			echo "    srcs = [$(quote_list $files)],"
			[ -n "$embeds" ] && echo "    embedsrcs = [$(quote_list $embeds)],"
			echo "    importpath = \"$ip\","
			echo '    visibility = ["//visibility:public"],'
			echo "    deps = [$(for i in $imports; do is_std "$i" || go_label "$i"; done | paste -sd, -)],"
			echo ')'
			echo
			echo "alias(name = \"go_default_library\", actual = \":$name\", visibility = [\"//visibility:public\"])"
		} >"$CACHE/deps/$repo/${rel:+$rel/}BUILD.bazel"
	done <<<"$lines"
	rm -f "$CACHE"/deps/go-repos-*
	touch "$CACHE/deps/go-repos-$stamp"
}

is_std() { case ${1%%/*} in *.*) return 1 ;; esac; }

go_repo_name() { # golang.org/x/tools -> org_golang_x_tools, github.com/a/b -> com_github_a_b (gazelle's names)
	local host=${1%%/*} rest=${1#*/}
	echo "$(echo "$host" | awk -F. '{for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? "_" : "")}')_$(echo "$rest" | tr '/.-' '___')" | tr 'A-Z' 'a-z'
}

go_label() { # golang.org/x/tools/go/analysis -> "@org_golang_x_tools//go/analysis" (module paths of three elements)
	local mod
	mod=$(echo "$1" | cut -d/ -f1-3)
	local rel=${1#"$mod"}
	rel=${rel#/}
	printf '"@%s//%s"\n' "$(go_repo_name "$mod")" "${rel:-:${mod##*/}}"
}

quote_list() { local f; for f in "$@"; do printf '"%s", ' "$f"; done; }

# offline.bazelrc (gitignored; imported by examples/bazel/.bazelrc, and a copy
# by the repository's .bazelrc) points the repositories a user's WORKSPACE
# downloads at the prepared local copies.
write_offline_bazelrc() {
	local rc=$EXAMPLE/offline.bazelrc
	cat >"$rc.tmp" <<-EOF
		# Written by .ci/bazel.sh: offline copies of what the WORKSPACE downloads.
		startup --output_user_root=$CACHE/bazel-root
		startup --max_idle_secs=600
	EOF
	local cmd
	for cmd in build query fetch; do
		cat >>"$rc.tmp" <<-EOF
			$cmd --override_repository=io_bazel_rules_go=$RULES_GO_DIR
			$cmd --override_repository=bazel_gazelle=$CACHE/deps/bazel-gazelle-v0.26.0
			$cmd --override_repository=bazel_skylib=/usr/share/bazel/tools/skylib
			$cmd --override_repository=platforms=/usr/share/bazel/tools/platforms
			$cmd --override_repository=rules_java=/usr/share/bazel/rules/java
			$cmd --override_repository=rules_cc=$CACHE/deps/rules_cc
			$cmd --override_repository=remote_coverage_tools=$CACHE/deps/remote_coverage_tools
			$cmd --override_repository=fuzzbox=$ROOT
			$cmd --repo_env=GOROOT=$SDK_DIR
		EOF
		for repo in $(cat "$CACHE/deps/go-repos.list"); do
			echo "$cmd --override_repository=$repo=$CACHE/deps/$repo" >>"$rc.tmp"
		done
	done
	cat >>"$rc.tmp" <<-EOF
		build --disk_cache=$CACHE/disk-cache
		build --repository_cache=$CACHE/repository-cache
	EOF
	mv "$rc.tmp" "$rc"
	# The repository's own workspace: the same, minus itself.
	grep -v -- '--override_repository=fuzzbox=' "$rc" >"$ROOT/offline.bazelrc"
}

install_bazel
prepare_rules_go
prepare_sdk
prepare_gazelle
prepare_stubs
prepare_go_repos
write_offline_bazelrc
step "installed: $(bazel --version 2>/dev/null || echo bazel), rules_go $RULES_GO_VERSION, Go $GO_VERSION"
[ "${1:-}" = install ] && exit 0

# ------------------------------------------------------------------ checks

# build_deps BUILD prints the labels of BUILD's deps lists, sorted: from each
# "deps = [" to its "]", on the same line (deps = ["//a"]) or a later one.
build_deps() {
	awk '/deps = \[/ { on = 1 } on { print } on && /\]/ { on = 0 }' "$1" | { grep -o '"[^"]*"' || true; } | sort -u
}

# Every package of the module (but the benchmark tools under bench/) has a BUILD file, the
# BUILD files list exactly the imports go list sees, and the root package's
# embedsrcs cover its //go:embed patterns.
check_build_deps() {
	step "check: BUILD files of fuzzbox's packages match the Go sources"
	local build dir want have bad=0 pkg
	for dir in $(GOFLAGS=-mod=mod "$GO" list -f '{{.Dir}}' ./... | sed "s#^$ROOT/*##"); do
		case $dir in bench | bench/*) continue ;; esac
		[ -f "${dir:-.}/BUILD.bazel" ] || { echo "${dir:-.}: a Go package without BUILD.bazel"; bad=1; }
	done
	# Each pattern's directory: internal/typedhook/*.go -> internal/typedhook.
	for pkg in $(GOFLAGS=-mod=mod "$GO" list -f '{{join .EmbedPatterns "\n"}}' . | sed 's#/[^/]*$##' | sort -u); do
		grep -q "\"//$pkg:runtime_srcs\"" BUILD.bazel || { echo "BUILD.bazel: embedsrcs lack //$pkg:runtime_srcs (runtime.go embeds $pkg/*.go)"; bad=1; }
	done
	for build in $(find . -name BUILD.bazel -not -path './examples/*' -not -path './.git/*' | sort); do
		grep -q 'go_library\|go_binary' "$build" || continue
		dir=$(dirname "$build")
		want=$(GOFLAGS=-mod=mod "$GO" list -f '{{join .Imports "\n"}}' "./$dir" | while read -r i; do
			case $i in
			github.com/fuzzbox/fuzzbox) echo '"//:fuzzbox"' ;;
			github.com/fuzzbox/fuzzbox/*) echo "\"//${i#github.com/fuzzbox/fuzzbox/}\"" ;;
			*) is_std "$i" || go_label "$i" ;;
			esac
		done | sort -u)
		have=$(build_deps "$build")
		if [ "$want" != "$have" ]; then
			echo "$build: deps are"; echo "${have:-  (none)}"; echo "but the imports need"; echo "${want:-  (none)}"
			bad=1
		fi
	done
	return $bad
}

# The example workspace's BUILD files list exactly what its packages and their
# tests import (a go_library's and its go_fuzz_test's deps together): the
# example's packages as //pkg, fuzzbox's as @fuzzbox//pkg, third-party ones by
# gazelle's names (@com_github_knetic_govaluate//:govaluate).
check_example_deps() {
	step "check: BUILD files of the example workspace match its Go sources"
	local build dir want have bad=0 ex=example.com/fuzzbox-bazel-example
	for build in $(cd "$EXAMPLE" && find . -name BUILD.bazel | sort); do
		grep -q 'go_library\|go_test\|go_fuzz_test' "$EXAMPLE/$build" || continue
		dir=$(dirname "${build#./}")
		want=$(cd "$EXAMPLE" && GOFLAGS=-mod=mod "$GO" list -f '{{join .Imports "\n"}}{{"\n"}}{{join .TestImports "\n"}}{{"\n"}}{{join .XTestImports "\n"}}' "./$dir" | while read -r i; do
			case $i in
			"" | "$ex/$dir") ;;
			"$ex"/*) echo "\"//${i#"$ex"/}\"" ;;
			github.com/fuzzbox/fuzzbox/*) echo "\"@fuzzbox//${i#github.com/fuzzbox/fuzzbox/}\"" ;;
			*) is_std "$i" || go_label "$i" ;;
			esac
		done | sort -u)
		have=$(build_deps "$EXAMPLE/$build")
		if [ "$want" != "$have" ]; then
			echo "examples/bazel/${build#./}: deps are"; echo "${have:-  (none)}"; echo "but the imports need"; echo "${want:-  (none)}"
			bad=1
		fi
	done
	return $bad
}

# expect_fail DESCRIPTION LOG PATTERN COMMAND...: COMMAND must fail and its
# output must match PATTERN (grep -E).
expect_fail() {
	local what=$1 log=$2 pattern=$3
	shift 3
	if "$@" >"$log" 2>&1; then
		cat "$log"; echo "FAIL: $what: succeeded, want a failure"; return 1
	fi
	if ! grep -Eq "$pattern" "$log"; then
		cat "$log"; echo "FAIL: $what: output does not match $pattern"; return 1
	fi
	echo "ok: $what (failed as expected: $(grep -Eo "$pattern" "$log" | sed -n 1p))"
}

LOGS=$CACHE/logs
# reproducer PKG TARGET FUZZTEST: the first reproducer of FUZZTEST in the outputs of
# bazel test //PKG:TARGET, unzipped into PKG; sets zip and repro.
reproducer() {
	zip=$(bazel info bazel-testlogs)/$1/$2/test.outputs/outputs.zip
	repro=$(unzip -Z1 "$zip" | grep "^testdata/fuzz/$3/." | sed -n 1p)
	[ -n "$repro" ] || { echo "FAIL: no reproducer in $zip"; exit 1; }
	unzip -o -q "$zip" "$repro" -d "$1"
}
# go_replays WHAT LOG PATTERN PKG FUZZTEST: stock go test, run in PKG on the reproducer
# $repro, fails with PATTERN.
go_replays() {
	expect_fail "$1" "$2" "$3" bash -c "cd $4 && GOFLAGS=-mod=mod $GO test -run=$5/$(basename "$repro") ."
}
CLEANUP=()
cleanup() { local p; for p in "${CLEANUP[@]}"; do rm -rf "$p"; done; }
trap cleanup EXIT

check_build_deps
cd "$EXAMPLE"
mkdir -p "$LOGS"
CLEANUP+=("$EXAMPLE/suite/testdata" "$EXAMPLE/parse/testdata" "$EXAMPLE/typed/testdata" "$EXAMPLE/thirdparty/testdata" "$EXAMPLE/cgolib/testdata" "$EXAMPLE/badmacro" "$EXAMPLE/seeded")
rm -rf suite/testdata parse/testdata typed/testdata thirdparty/testdata cgolib/testdata badmacro seeded
check_example_deps

step "bazel build @fuzzbox//... (the libraries, commands and tools) in the example workspace"
# The repository's packages, named: //... would also walk a checkout's bazel-* symlinks.
PACKAGES="//:all //analyzers/... //cmd/... //corpus/... //driver/... //engine/... //event/... //lsp/... //rules:all //rules/private/..."
bazel build ${PACKAGES//\/\//@fuzzbox\/\/}

step "bazel build //... and the Starlark unit tests in the repository's own workspace"
(cd "$ROOT" && bazel build $PACKAGES && bazel test //rules/tests/...)

step "bazel test: the replay targets pass"
bazel test //parse:parse_fuzz //multi:multi_fuzz //multi:reverse_fuzz //magic:magic_fuzz

step "bazel test: the fuzzing target finds the planted bug"
touch "$LOGS/before-fuzz-tests"
expect_fail "bazel test //parse:parse_fuzz_fuzz" "$LOGS/fuzz.log" 'into the source tree: unzip' \
	bazel test //parse:parse_fuzz_fuzz
reproducer parse parse_fuzz_fuzz FuzzHeader
unzip -l "$zip"
unzip -Z1 "$zip" | grep -x events.json >/dev/null && unzip -Z1 "$zip" | grep -x summary.txt >/dev/null
grep -q '"type":"failure"' <(unzip -p "$zip" events.json) || { echo "FAIL: no failure event in events.json"; exit 1; }
go_replays "stock go test replays the reproducer" "$LOGS/replay.log" 'slice bounds out of range' parse FuzzHeader
expect_fail "bazel test --test_filter replays the reproducer" "$LOGS/replay-bazel.log" 'slice bounds out of range' \
	bazel test //parse:parse_fuzz --test_filter="FuzzHeader/$(basename "$repro")" --test_output=errors
rm -rf parse/testdata

step "bazel test: a seed slow only in the fuzzing binary is replayed with the replay test, left out, and the fuzz test fuzzed"
if ! bazel test //slowseed:slowseed_fuzz_fuzz --test_output=all --nocache_test_results >"$LOGS/slowseed.log" 2>&1; then
	cat "$LOGS/slowseed.log"; echo "FAIL: //slowseed:slowseed_fuzz_fuzz failed: the slow seed was reported as the code's hang"; exit 1
fi
# The replay test's binary replays it, and the warning names it (no go command runs).
for want in "the package's test binary (slowseed_fuzz) with -test.run='^FuzzSum\$/^seed#0\$' runs it within 1s" "FuzzSum starts again without seed#0, slow only in fuzzbox's binary" \
	"execs, without seed#0 (slower than -timeout only in fuzzbox's binary)"; do
	grep -Fq "$want" "$LOGS/slowseed.log" || { cat "$LOGS/slowseed.log"; echo "FAIL: slowseed_fuzz_fuzz's log lacks: $want"; exit 1; }
done
zip=$(bazel info bazel-testlogs)/slowseed/slowseed_fuzz_fuzz/test.outputs/outputs.zip
if unzip -Z1 "$zip" | grep '^testdata/fuzz/'; then echo "FAIL: a reproducer of the slow seed in $zip"; exit 1; fi
echo "ok: slowseed_fuzz_fuzz passed; seed#0 left out, the fuzz test fuzzed, no reproducer"

step "env, args, x_defs, gc_goopts, gc_linkopts and embedsrcs: go_fuzz_test's reach the fuzzing binary and the replay of failures, under bazel test and bazel run"
# FuzzLabel fails on every input without its env (ENVVAR_PREFIX, and a $(location) in ENVVAR_DATA), args (-envvar.mode=on),
# x_defs (Greeting), gc_linkopts (Linked) or gc_goopts (-lang=go1.21); it embeds words.txt (embedsrcs). bazel run keeps its corpus in a cache of its own, not the user's.
if ! bazel test //envvar:envvar_fuzz //envvar:envvar_fuzz_fuzz --test_output=errors --nocache_test_results >"$LOGS/envvar.log" 2>&1; then
	cat "$LOGS/envvar.log"; echo "FAIL: the envvar tests failed: go_fuzz_test's env, args, x_defs, gc_goopts, gc_linkopts or embedsrcs did not reach them"; exit 1
fi
if ! XDG_CACHE_HOME="$LOGS/xdg-cache" bazel run //envvar:envvar_fuzz_run -- -fuzztime=3s >"$LOGS/envvar-run.log" 2>&1; then
	cat "$LOGS/envvar-run.log"; echo "FAIL: bazel run //envvar:envvar_fuzz_run failed: go_fuzz_test's env, args, x_defs, gc_goopts or gc_linkopts did not reach it"; exit 1
fi
if [ -e envvar/testdata ]; then ls -R envvar/testdata; echo "FAIL: bazel run //envvar:envvar_fuzz_run wrote a reproducer"; exit 1; fi
echo "ok: envvar_fuzz, envvar_fuzz_fuzz and envvar_fuzz_run passed with their env, args, x_defs, gc_linkopts, gc_goopts and embedsrcs"

step "typed fuzz tests: the replay target passes, the fuzzing target finds the planted bug, the reproducer replays"
bazel test //typed:typed_fuzz
expect_fail "bazel test //typed:typed_fuzz_fuzz" "$LOGS/typed.log" \
	'failing arguments: Config\{Listener: Listener\{Protocol: "h2c", Tag: 0xc0def022\}, Backends: \[\]string\{""\}\}' \
	bazel test //typed:typed_fuzz_fuzz
reproducer typed typed_fuzz_fuzz FuzzBackend
grep -q '"values":\["Config{' <(unzip -p "$zip" events.json) || { echo "FAIL: no failing arguments in events.json"; exit 1; }
grep -q '^  failing arguments: Config{' <(unzip -p "$zip" summary.txt) || { echo "FAIL: no failing arguments in summary.txt"; exit 1; }
echo "ok: the reproducer $repro (one []byte: $(unzip -p "$zip" "$repro" | sed -n 2p)), the arguments in events.json and summary.txt"
go_replays "stock go test replays the typed reproducer" "$LOGS/typed-replay.log" 'index out of range \[1\] with length 1' typed FuzzBackend
expect_fail "bazel test --test_filter replays the typed reproducer" "$LOGS/typed-replay-bazel.log" 'index out of range \[1\] with length 1' \
	bazel test //typed:typed_fuzz --test_filter="FuzzBackend/$(basename "$repro")" --test_output=errors
rm -rf typed/testdata

step "instrument_deps: a dependency instrumented in the fuzzing binary only; the fuzzing target finds the bug in it"
# compiled all|instrumented TARGET: the packages go_fuzz_instrumented TARGET compiles (all
# of them, or the ones with -d=libfuzzer), from the compile actions' command lines.
compiled() {
	bazel aquery "mnemonic(GoCompilePkg, $2)" --output=text 2>/dev/null | awk -v want="$1" '
		/^action / { name = $3; sub(/^.*_(instrumented|archives)\//, "", name); sub(/\.a.$/, "", name) }
		want == "all" && /^action / { print name }
		want == "instrumented" && /-d=libfuzzer/ { print name }' | sort | paste -sd' '
}
# expect_eq WHAT GOT WANT
expect_eq() { [ "$2" = "$3" ] || { echo "FAIL: $1: got \"$2\", want \"$3\""; exit 1; }; echo "ok: $1: $2"; }
ex=example.com/fuzzbox-bazel-example/magic
expect_eq "instrument_deps = [\"//magic/frame\"] instruments" "$(compiled instrumented //magic:magic_fuzz_instrumented)" "$ex/frame"
expect_eq "... and rebuilds what imports it" "$(compiled all //magic:magic_fuzz_instrumented)" "$ex/frame $ex/frametest"
expect_eq "instrument_deps = True instruments" "$(compiled instrumented //magic:magic_all_fuzz_instrumented)" "$ex/frame $ex/frametest"
# In the linked binaries: frame.Parse, which compares the magic number, calls the
# comparison hooks only where frame is instrumented.
bazel build //magic:magic_fuzz_bin //magic:magic_plain_fuzz_bin
bin=$(bazel info bazel-bin)
hooks() { "$GO" tool objdump -s "^$ex/frame\.Parse\$" "$bin/magic/$1_/$1" | grep -c 'CALL runtime\.libfuzzerTrace' || true; }
n=$(hooks magic_fuzz_bin)
[ "$n" -gt 0 ] || { echo "FAIL: frame.Parse in magic_fuzz_bin calls no comparison hook"; exit 1; }
echo "ok: frame.Parse in magic_fuzz_bin calls the comparison hooks ($n calls)"
expect_eq "comparison hook calls in frame.Parse of magic_plain_fuzz_bin (no instrument_deps)" "$(hooks magic_plain_fuzz_bin)" 0
expect_fail "bazel test //magic:magic_fuzz_fuzz" "$LOGS/magic.log" 'FuzzDecode: failure \(panic\): panic: runtime error: slice bounds out of range' \
	bazel test //magic:magic_fuzz_fuzz

step "deps that import the package under test (a test-suite package): compiled again against the test's copy; the fuzzing target finds the bug; go test replays it"
ex=example.com/fuzzbox-bazel-example/suite
expect_eq "the fuzzing binary's test packages, compiled again with the dep that imports the package under test" \
	"$(compiled all //suite:suite_fuzz_archives)" "$ex $ex/suitetest ${ex}_test"
expect_eq "... and nothing where no dep imports it" "$(compiled all //magic:magic_fuzz_archives)" ""
expect_eq "instrument_deps = True instruments the test-suite package (not a copy of the package under test)" \
	"$(compiled instrumented //suite:suite_all_fuzz_instrumented)" "$ex/suitetest"
expect_eq "... and its copy compiled again against the test's keeps the instrumentation" \
	"$(compiled instrumented //suite:suite_all_fuzz_archives)" "$ex $ex/suitetest ${ex}_test"
bazel build //suite:suite_all_fuzz_bin
bazel test //suite:suite_fuzz
expect_fail "bazel test //suite:suite_fuzz_fuzz" "$LOGS/suite.log" 'FuzzParse: failure \(panic\): panic: runtime error: index out of range' \
	bazel test //suite:suite_fuzz_fuzz
reproducer suite suite_fuzz_fuzz FuzzParse
go_replays "go test replays the reproducer of //suite:suite_fuzz_fuzz" "$LOGS/suite-go.log" 'index out of range' suite FuzzParse

step "a third-party module (a go_repository): instrument_deps instruments it; the fuzzing target finds its real bug; the stock test and go test replay it"
# govaluate v3.0.0's lexer indexes past the end of a rule such as "\\" (index out of range).
expect_eq "instrument_deps = True instruments" "$(compiled instrumented //thirdparty:thirdparty_fuzz_instrumented)" "github.com/Knetic/govaluate"
bazel test //thirdparty:thirdparty_fuzz
expect_fail "bazel test //thirdparty:thirdparty_fuzz_fuzz" "$LOGS/thirdparty.log" 'FuzzAllowed: failure \(panic\): panic: runtime error: index out of range' \
	bazel test //thirdparty:thirdparty_fuzz_fuzz --test_output=errors
reproducer thirdparty thirdparty_fuzz_fuzz FuzzAllowed
grep -q 'govaluate\.' <(unzip -p "$zip" events.json) || { echo "FAIL: the failure's stack in events.json does not name govaluate"; exit 1; }
echo "ok: the reproducer $repro: $(unzip -p "$zip" "$repro" | sed -n 2p)"
go_replays "stock go test replays the reproducer" "$LOGS/thirdparty-replay.log" 'index out of range' thirdparty FuzzAllowed
expect_fail "bazel test --test_filter replays the reproducer" "$LOGS/thirdparty-replay-bazel.log" 'index out of range' \
	bazel test //thirdparty:thirdparty_fuzz --test_filter="FuzzAllowed/$(basename "$repro")" --test_output=errors
rm -rf thirdparty/testdata

step "cgo: a package under test and an instrumented dependency that use cgo; both fuzzing targets find the bug behind the C checksum; go test replays it"
# cgolib checks a record's trailer against an FNV-1a checksum computed in C;
# a valid record whose body starts with "BUG" panics (planted).
expect_eq "instrument_deps = True instruments the cgo package" "$(compiled instrumented //cgolib/wrap:wrap_fuzz_instrumented)" "example.com/fuzzbox-bazel-example/cgolib"
bazel test //cgolib:cgolib_fuzz //cgolib/wrap:wrap_fuzz
expect_fail "bazel test //cgolib:cgolib_fuzz_fuzz" "$LOGS/cgolib.log" 'FuzzCheck: failure \(panic\): panic: a valid record starting with BUG' \
	bazel test //cgolib:cgolib_fuzz_fuzz --test_output=errors
expect_fail "bazel test //cgolib/wrap:wrap_fuzz_fuzz" "$LOGS/cgowrap.log" 'FuzzBody: failure \(panic\): panic: a valid record starting with BUG' \
	bazel test //cgolib/wrap:wrap_fuzz_fuzz --test_output=errors
reproducer cgolib cgolib_fuzz_fuzz FuzzCheck
echo "ok: the reproducer $repro: $(unzip -p "$zip" "$repro" | sed -n 2p)"
go_replays "stock go test replays the cgo reproducer" "$LOGS/cgolib-replay.log" 'a valid record starting with BUG' cgolib FuzzCheck
rm -rf cgolib/testdata

step "bazel run: fuzzes in the source tree, writes the reproducer there, keeps the corpus in the user cache"
rm -rf "$LOGS/xdg-cache"
XDG_CACHE_HOME="$LOGS/xdg-cache" expect_fail "bazel run //parse:parse_fuzz_run" "$LOGS/run.log" 'found panic failure' \
	bazel run //parse:parse_fuzz_run -- -fuzztime=60s
ls parse/testdata/fuzz/FuzzHeader/* || { echo "FAIL: bazel run wrote no reproducer into the source tree"; exit 1; }
ls -d "$LOGS/xdg-cache/fuzzbox/fuzz/example.com/fuzzbox-bazel-example/parse/FuzzHeader" ||
	{ echo "FAIL: bazel run kept no generated corpus in \$XDG_CACHE_HOME/fuzzbox/fuzz/<import path>"; exit 1; }
echo "ok: reproducer in the source tree, generated corpus in the persistent cache"
rm -rf parse/testdata

step "bazel run: Ctrl-C stops it cleanly"
# The script bazel run would run (it execs the runner), so that SIGINT reaches
# the runner as a terminal's Ctrl-C does, and its exit status is ours to see.
bazel run --script_path="$LOGS/multi_fuzz_run.sh" //multi:multi_fuzz_run
"$LOGS/multi_fuzz_run.sh" -fuzztime=10m -cachedir="$CACHE/run-cache" >"$LOGS/interrupt.log" 2>&1 &
pid=$!
for _ in $(seq 60); do grep -q 'elapsed: [1-9]' "$LOGS/interrupt.log" && break; sleep 1; done
kill -INT $pid
code=0
wait $pid || code=$?
tail -4 "$LOGS/interrupt.log"
[ "$code" = 0 ] || { cat "$LOGS/interrupt.log"; echo "FAIL: exit status $code after SIGINT, want 0"; exit 1; }
grep -q '^PASS$' "$LOGS/interrupt.log" || { echo "FAIL: the fuzzing binary did not finish cleanly"; exit 1; }
echo "ok: SIGINT: the run stops, exit status 0"

step "bazel test: sharded fuzzing targets (two fuzz tests over two shards; one fuzz test, two campaigns)"
bazel test //multi:multi_fuzz_fuzz //multi:reverse_fuzz_fuzz --nocache_test_results
testlogs=$(bazel info bazel-testlogs)
grep -q 'shard 1 of 2: FuzzReverse$' "$testlogs/multi/multi_fuzz_fuzz/shard_1_of_2/test.log"
grep -q 'shard 2 of 2: FuzzWords$' "$testlogs/multi/multi_fuzz_fuzz/shard_2_of_2/test.log"
grep -q 'shard 1 of 2: FuzzReverse$' "$testlogs/multi/reverse_fuzz_fuzz/shard_1_of_2/test.log"
grep -q 'shard 2 of 2: FuzzReverse$' "$testlogs/multi/reverse_fuzz_fuzz/shard_2_of_2/test.log"
echo "ok: shards split the fuzz tests, or run campaigns of the one"

step "bazel test: no budget (--test_arg=-fuzztime=) fuzzes for what the test's timeout leaves, and passes"
# Without a bound, each shard fuzzed until Bazel's timeout: TIMEOUT, a failure.
bazel test //multi:multi_fuzz_fuzz --test_arg=-fuzztime= --test_timeout=100 --nocache_test_results
for s in 1 2; do
	grep -q 'no -fuzztime: fuzzing for 25s' "$testlogs/multi/multi_fuzz_fuzz/shard_${s}_of_2/test.log" ||
		{ cat "$testlogs/multi/multi_fuzz_fuzz/shard_${s}_of_2/test.log"; echo "FAIL: shard $s did not say its budget"; exit 1; }
done
echo "ok: the budget fits the timeout"

step "bazel test: a go_fuzz_test of tests without a fuzz test passes, as go test -fuzz does"
bazel test //multi:plain_fuzz //multi:plain_fuzz_fuzz --nocache_test_results
grep -q 'no fuzz tests to fuzz' "$testlogs/multi/plain_fuzz_fuzz/test.log"
echo "ok: nothing to fuzz, the target passes"

# write_seeded writes the package seeded (removed at exit): FuzzGate's planted bug sits behind
# a SHA-256 check of the input's first 8 bytes, which fuzzing alone does not pass (2^-32 per
# input); its corpus attribute holds an input that passes it (and a file that does not parse).
# FuzzClassify (no bug, many branches) is fuzzed over two shards for the merge target.
write_seeded() {
	mkdir -p seeded/testdata/corpus/FuzzGate
	cat >seeded/BUILD.bazel <<-'EOF'
		load("@io_bazel_rules_go//go:def.bzl", "go_library")
		load("@fuzzbox//rules:defs.bzl", "go_fuzz_test")

		go_library(
		    name = "seeded",
		    srcs = ["seeded.go"],
		    importpath = "example.com/fuzzbox-bazel-example/seeded",
		)

		go_fuzz_test(
		    name = "gate_fuzz",
		    srcs = ["seeded_test.go"],
		    corpus = glob(["testdata/corpus/**"]),
		    embed = [":seeded"],
		    fuzz = "^FuzzGate$",
		    fuzz_args = ["-parallel=1"],
		    fuzztime = "30s",
		)

		go_fuzz_test(
		    name = "classify_fuzz",
		    srcs = ["seeded_test.go"],
		    corpus = glob(["testdata/corpus/**"]),
		    embed = [":seeded"],
		    fuzz = "^FuzzClassify$",
		    fuzz_args = ["-parallel=1"],
		    fuzztime = "5s",
		    shard_count = 2,
		)
	EOF
	cat >seeded/seeded.go <<-'EOF'
		// Package seeded is written by .ci/bazel.sh for the corpus attribute and merge checks.
		package seeded

		import "crypto/sha256"

		var key = [4]byte{0x52, 0x43, 0x69, 0x2a} // SHA-256("fuzzbox!")[:4]

		// Gate reads a record whose first 8 bytes must hash to key.
		func Gate(data []byte) int {
			if len(data) < 10 {
				return 0
			}
			if sum := sha256.Sum256(data[:8]); [4]byte(sum[:4]) != key {
				return 1
			}
			if data[8] == 'v' && data[9] == '2' {
				return int(data[16]) // the planted bug: a v2 record is not checked to be 17 bytes long
			}
			return 2
		}

		// Classify returns how many kinds of bytes s has.
		func Classify(s string) int {
			var seen [8]bool
			for _, c := range []byte(s) {
				switch {
				case c >= '0' && c <= '9':
					seen[0] = true
				case c >= 'a' && c <= 'z':
					seen[1] = true
				case c >= 'A' && c <= 'Z':
					seen[2] = true
				case c == ' ' || c == '\t':
					seen[3] = true
				case c == '{' || c == '}':
					seen[4] = true
				case c < 0x20:
					seen[5] = true
				case c >= 0x80:
					seen[6] = true
				default:
					seen[7] = true
				}
			}
			n := 0
			for _, b := range seen {
				if b {
					n++
				}
			}
			return n
		}
	EOF
	cat >seeded/seeded_test.go <<-'EOF'
		package seeded

		import "testing"

		func FuzzGate(f *testing.F) {
			f.Add([]byte("0123456789"))
			f.Fuzz(func(t *testing.T, data []byte) { Gate(data) })
		}

		func FuzzClassify(f *testing.F) {
			f.Add("a")
			f.Fuzz(func(t *testing.T, s string) { Classify(s) })
		}
	EOF
	printf 'go test fuzz v1\n[]byte("fuzzbox!v1")\n' >seeded/testdata/corpus/FuzzGate/record-v1
	printf 'this is not a corpus file\n' >seeded/testdata/corpus/FuzzGate/notes.txt
}

step "corpus attribute: the fuzzing test and bazel run start from it; a file that does not parse is a warning"
write_seeded
expect_fail "bazel test //seeded:gate_fuzz_fuzz" "$LOGS/gate.log" 'FuzzGate: failure \(panic\): panic: runtime error: index out of range \[16\]' \
	bazel test //seeded:gate_fuzz_fuzz --nocache_test_results
testlogs=$(bazel info bazel-testlogs)
log=$testlogs/seeded/gate_fuzz_fuzz/test.log
grep -F 'fuzzbox: corpus: FuzzGate: 1 of 2 files of the corpus attribute loaded (1 new to the generated corpus, 1 skipped)' "$log" ||
	{ cat "$log"; echo "FAIL: the run does not say it loaded the corpus"; exit 1; }
grep -F 'fuzzbox: warning: corpus: skipping seeded/testdata/corpus/FuzzGate/notes.txt for FuzzGate: ' "$log" ||
	{ echo "FAIL: no warning for the file that does not parse"; exit 1; }
grep -qx 'exit code: 1' <(unzip -p "$testlogs/seeded/gate_fuzz_fuzz/test.outputs/outputs.zip" summary.txt) ||
	{ echo "FAIL: the run did not end with exit code 1 (a failure found)"; exit 1; }
rm -rf "$LOGS/gate-cache"
expect_fail "bazel run //seeded:gate_fuzz_run (a fresh cache)" "$LOGS/gate-run.log" 'found panic failure' \
	bazel run //seeded:gate_fuzz_run -- -cachedir="$LOGS/gate-cache"
grep -F 'fuzzbox: corpus: FuzzGate: 1 of 2 files of the corpus attribute loaded (1 new to the generated corpus, 1 skipped)' "$LOGS/gate-run.log"
ls seeded/testdata/fuzz/FuzzGate/* || { echo "FAIL: bazel run wrote no reproducer"; exit 1; }
rm -rf seeded/testdata/fuzz
echo "ok: the corpus entry past the SHA-256 check is loaded, the bug behind it found under bazel test and bazel run"

step "merge target: the shards' new inputs into the source tree"
mkdir -p "$LOGS/empty-testlogs"
expect_fail "bazel run //seeded:classify_fuzz_merge with no outputs" "$LOGS/merge-none.log" \
	'merge: no outputs of //seeded:classify_fuzz_fuzz in .*empty-testlogs: run bazel test //seeded:classify_fuzz_fuzz first' \
	bazel run //seeded:classify_fuzz_merge -- -testlogs="$LOGS/empty-testlogs"
bazel test //seeded:classify_fuzz_fuzz --nocache_test_results
inputs=0
for shard in 1 2; do
	zip=$testlogs/seeded/classify_fuzz_fuzz/shard_${shard}_of_2/test.outputs/outputs.zip
	n=$(unzip -Z1 "$zip" | grep -c '^corpus/FuzzClassify/.' || true)
	[ "$n" -gt 0 ] || { unzip -l "$zip"; echo "FAIL: shard $shard saved no new inputs"; exit 1; }
	inputs=$((inputs + n))
done
touch "$LOGS/before-merge"
bazel run //seeded:classify_fuzz_merge >"$LOGS/merge.log" 2>&1 || { cat "$LOGS/merge.log"; echo "FAIL: the merge target failed"; exit 1; }
cat "$LOGS/merge.log" | grep '^merge:'
written=$(ls seeded/testdata/corpus/FuzzClassify | wc -l)
[ "$written" -ge 1 ] && [ "$written" -le "$inputs" ] || { echo "FAIL: $written files merged from $inputs inputs"; exit 1; }
for f in seeded/testdata/corpus/FuzzClassify/*; do
	[ "$(basename "$f")" = "$(sha256sum <"$f" | cut -c1-16)" ] || { echo "FAIL: $f is not named by its content's hash"; exit 1; }
	head -1 "$f" | grep -qx 'go test fuzz v1' || { echo "FAIL: $f is not a go test fuzz v1 file"; exit 1; }
done
other=$(find . -newer "$LOGS/before-merge" -type f -not -path './bazel-*' -not -path './seeded/testdata/corpus/FuzzClassify/*' | head)
[ -z "$other" ] || { echo "FAIL: the merge wrote outside seeded/testdata/corpus/FuzzClassify: $other"; exit 1; }
echo "ok: $written of the shards' $inputs new inputs merged into seeded/testdata/corpus/FuzzClassify, content-addressed, nothing else written"
rm -rf seeded

step "the fuzzing tests are hermetic: nothing written to the user's fuzzbox cache"
touched=$(find "${XDG_CACHE_HOME:-$HOME/.cache}/fuzzbox" -newer "$LOGS/before-fuzz-tests" 2>/dev/null | grep 'fuzzbox-bazel-example' || true)
[ -z "$touched" ] || { echo "FAIL: the fuzzing tests wrote $touched"; exit 1; }
echo "ok: no writes outside TEST_TMPDIR and the outputs to the fuzzbox cache"

step "nogo: fuzzvet fails the build of a bad f.Add"
expect_fail "bazel build //badadd:badadd_test" "$LOGS/nogo.log" 'f\.Add value 42 has type int.*\(fuzzadd\)' \
	bazel build //badadd:badadd_test

step "go_fuzz_test: nonsense arguments fail at load time"
# bad_macro ARGS MESSAGE: go_fuzz_test(name = "bad", ARGS) must fail loading with MESSAGE.
bad_macro() {
	mkdir -p badmacro
	printf 'load("@fuzzbox//rules:defs.bzl", "go_fuzz_test")\n\ngo_fuzz_test(name = "bad", %s)\n' "$1" >badmacro/BUILD.bazel
	expect_fail "go_fuzz_test($1)" "$LOGS/macro.log" "$(printf '%s' "go_fuzz_test(name = \"bad\"): $2" | sed 's/[][().*+?{}|^$\\]/\\&/g')" \
		bazel query //badmacro:all
}
bad_macro 'srcs = ["bad_test.go"], embed = ["//parse"], fuzztime = "soon"' \
	'fuzztime must be a duration such as "30s" or "5m", or "Nx" executions, not "soon"'
bad_macro 'srcs = ["bad_test.go"], embed = ["//parse"], fuzztime = "10m", timeout = "short"' \
	'fuzztime = "10m" does not fit timeout "short" (60s, and fuzzing needs about 90s more for the baseline and minimization): raise the timeout or shorten fuzztime'
bad_macro 'srcs = ["bad_test.go"]' \
	'embed must name the go_library under test: it is the package the fuzzing binary instruments'
bad_macro 'srcs = ["bad_test.go"], embed = ["//parse"], fuzz_args = ["-fuzztime=1m"]' \
	'set -fuzztime with the fuzztime attribute, not in fuzz_args'
bad_macro 'srcs = ["bad_test.go"], embed = ["//parse"], corpus = "testdata/corpus"' \
	'corpus must be a list of files or filegroups, such as glob(["testdata/corpus/**"]), not "testdata/corpus"'
bad_macro 'srcs = ["bad_test.go"], embed = ["//parse"], shard_count = 0' \
	'shard_count must be a positive integer, not 0'
bad_macro 'srcs = ["bad_test.go"], embed = ["//parse"], instrument_deps = "all"' \
	'instrument_deps must be True (every dependency but fuzzbox'"'"'s own packages) or a list of go_library labels, not "all"'
bad_macro 'srcs = ["bad_test.go"], embed = ["//parse"], instrument_deps = ["//parse"]' \
	'instrument_deps must not list "//parse", the library under test: it is always instrumented'
bad_macro 'srcs = ["bad_test.go"], embed = ["//parse"], race = "on"' \
	'race is not supported by fuzzing targets yet; declare a plain go_test for it'
# rules_go's defaults given explicitly, and a duration with a fraction, load.
printf 'load("@fuzzbox//rules:defs.bzl", "go_fuzz_test")\n\ngo_fuzz_test(name = "ok", srcs = ["bad_test.go"], embed = ["//parse"], fuzztime = "1.5m", race = "off", msan = "off", pure = "off", linkmode = "normal", cgo = False)\n' >badmacro/BUILD.bazel
bazel query //badmacro:all >"$LOGS/macro.log" 2>&1 || { echo "FAIL: go_fuzz_test with rules_go's defaults given and fuzztime = \"1.5m\" does not load"; cat "$LOGS/macro.log"; exit 1; }
echo "ok: go_fuzz_test with rules_go's defaults given and fuzztime = \"1.5m\" loads"
# Whether a label is a dependency is known at analysis time only.
printf 'load("@fuzzbox//rules:defs.bzl", "go_fuzz_test")\n\ngo_fuzz_test(name = "bad", srcs = ["bad_test.go"], embed = ["//parse"], instrument_deps = ["//multi"])\n' >badmacro/BUILD.bazel
expect_fail "instrument_deps = [\"//multi\"] (not a dependency)" "$LOGS/macro.log" \
	'//badmacro:bad_instrumented: instrument_deps lists //multi:multi, which is not a dependency of the library under test or of the test'"'"'s deps' \
	bazel build --nobuild //badmacro:bad_instrumented
rm -rf badmacro

step "all Bazel checks passed"
