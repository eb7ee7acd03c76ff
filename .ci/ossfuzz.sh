#!/usr/bin/env bash
# OSS-Fuzz / ClusterFuzzLite path (docs/oss-fuzz.md), end to end on
# examples/ossfuzz: build the libFuzzer binary with fuzzbox, check the seed
# corpus zip, let libFuzzer find the planted bug with -runs bounded, turn the
# crash into a go test reproducer and replay it with stock go test; then run
# the build.sh "fuzzbox oss-fuzz init" writes with OSS-Fuzz's environment.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if ! command -v clang-16 >/dev/null 2>&1 || ! ls /usr/lib/llvm-16/lib/clang/16/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
	echo "--- installing clang-16 and libclang-rt-16-dev"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq clang-16 libclang-rt-16-dev >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/fuzzbox" ./cmd/fuzzbox
# A copy of the example module: the reproducer is written into it, not into the checkout.
cp -r examples "$work/examples"
pkg="$work/examples/ossfuzz"

echo "--- fuzzbox build -libfuzzer"
(cd "$pkg" && CXX=clang-16 "$work/fuzzbox" build -libfuzzer -o "$work/out" -fuzz=FuzzFrame .)
ls "$work/out"

echo "--- the seed corpus zip holds the 2 f.Add seeds and the 1 testdata file"
n=$(unzip -Z1 "$work/out/FuzzFrame_seed_corpus.zip" | wc -l)
if [ "$n" -ne 3 ]; then echo "FAIL: $n seeds in the zip, want 3"; exit 1; fi
mkdir -p "$work/seeds" "$work/corpus" "$work/crash"
unzip -q "$work/out/FuzzFrame_seed_corpus.zip" -d "$work/seeds"
"$work/out/FuzzFrame" "$work/seeds"/* >"$work/seeds.log" 2>&1 || { cat "$work/seeds.log"; echo "FAIL: a seed fails in the binary"; exit 1; }

echo "--- libFuzzer, -runs=1000000"
set +e
(cd "$work/crash" && "$work/out/FuzzFrame" -runs=1000000 -seed=1 -use_value_profile=1 -dict="$work/out/FuzzFrame.dict" "$work/corpus" "$work/seeds" >"$work/fuzz.log" 2>&1)
status=$?
set -e
grep -a -E "^#[0-9]+[[:space:]]+(INITED|DONE)|deadly signal|Test unit written|slice bounds" "$work/fuzz.log" | sed -n 1,10p
crash=$(ls "$work"/crash/crash-* 2>/dev/null | sed -n 1p)
if [ "$status" -eq 0 ] || [ -z "$crash" ]; then tail -40 "$work/fuzz.log"; echo "FAIL: libFuzzer did not find the planted bug"; exit 1; fi

echo "--- fuzzbox corpus import -from-libfuzzer"
out=$(cd "$pkg" && "$work/fuzzbox" corpus import -from-libfuzzer -fuzz=FuzzFrame "$crash")
echo "$out"
run=$(echo "$out" | sed -n 's/.*replay: go test -run=\([^)]*\)).*/\1/p')
cat "$pkg/testdata/fuzz/${run}"

echo "--- stock go test -run=$run"
set +e
(cd "$pkg" && go test -run="$run" . >"$work/replay.log" 2>&1)
status=$?
set -e
head -8 "$work/replay.log"
if [ "$status" -eq 0 ] || ! grep -q "slice bounds out of range" "$work/replay.log"; then echo "FAIL: the reproducer does not fail the same way"; exit 1; fi

echo "--- fuzzbox oss-fuzz init; its build.sh with OSS-Fuzz's environment (base-builder-go, SANITIZER=address)"
src="$work/src"
mkdir -p "$src" "$work/OUT"
cp -r examples "$src/examples"
"$work/fuzzbox" oss-fuzz init -dir "$src/examples"
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
# OSS-Fuzz's CXXFLAGS also have -stdlib=libc++, which Debian's clang-16 lacks without libc++-16-dev.
PATH="$work:$PATH" SRC="$src" OUT="$work/OUT" CC=clang-16 CXX=clang++-16 CFLAGS="$flags" CXXFLAGS="$flags" \
	LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address FUZZING_LANGUAGE=go \
	bash -eu "$src/examples/.clusterfuzzlite/build.sh"
for t in FuzzFrame FuzzDecode; do
	for f in "$t" "$t.dict" "$t.options" "${t}_seed_corpus.zip"; do
		test -s "$work/OUT/$f" || { echo "FAIL: build.sh did not write \$OUT/$f"; exit 1; }
	done
	rm -rf "$work/s-$t" && mkdir "$work/s-$t" && unzip -q "$work/OUT/${t}_seed_corpus.zip" -d "$work/s-$t"
	"$work/OUT/$t" -runs=0 "$work/s-$t" >"$work/$t.log" 2>&1 || { tail -30 "$work/$t.log"; echo "FAIL: $t (ASan build) failed"; exit 1; }
	grep -a -E "^#[0-9]+[[:space:]]+(INITED|DONE)" "$work/$t.log"
done
echo "--- ossfuzz: ok"
