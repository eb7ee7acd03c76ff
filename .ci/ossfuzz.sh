#!/usr/bin/env bash
# OSS-Fuzz / ClusterFuzzLite path (docs/oss-fuzz.md), end to end on
# examples/ossfuzz: build the libFuzzer binary with fuzzbox, check the seed
# corpus zip, let libFuzzer find the planted bug with -runs bounded, turn the
# crash into a go test reproducer and replay it with stock go test; the same
# with AFL++ (its libFuzzer driver, afl-fuzz with CmpLog); then run the
# build.sh "fuzzbox oss-fuzz init" writes with OSS-Fuzz's environment.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if ! command -v clang-16 >/dev/null 2>&1 || ! ls /usr/lib/llvm-16/lib/clang/16/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
	! command -v afl-fuzz >/dev/null 2>&1 || ! ls /usr/lib/afl/libAFLDriver.a >/dev/null 2>&1; then
	echo "--- installing clang-16, libclang-rt-16-dev and afl++"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq clang-16 libclang-rt-16-dev afl++ >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/fuzzbox" ./cmd/fuzzbox
# A copy of the example module: the reproducer is written into it, not into the checkout.
cp -r examples "$work/examples"
cp -r examples "$work/examples-afl" # pristine: the libFuzzer reproducer below would be an AFL++ seed
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
grep -a -E "inline 8-bit counters|^#[0-9]+[[:space:]]+(INITED|DONE)|deadly signal|Test unit written|slice bounds" "$work/fuzz.log" | sed -n 1,10p
# libFuzzer's own __sanitizer_cov_8bit_counters_init, not engine/libfuzzer's weak stand-in, got the Go counters.
grep -a -q -E "Loaded 1 modules +\([1-9][0-9]* inline 8-bit counters\)" "$work/fuzz.log" || { echo "FAIL: libFuzzer did not load the Go edge counters"; exit 1; }
crash=$(ls "$work"/crash/crash-* 2>/dev/null | sed -n 1p)
if [ "$status" -eq 0 ] || [ -z "$crash" ]; then tail -40 "$work/fuzz.log"; echo "FAIL: libFuzzer did not find the planted bug"; exit 1; fi

# replay CRASH_FILE TAG: fuzzbox corpus import -from-libfuzzer, then stock go
# test must fail on the reproducer with the planted bug.
replay() {
	local out run status
	out=$(cd "$pkg" && "$work/fuzzbox" corpus import -from-libfuzzer -fuzz=FuzzFrame "$1")
	echo "$out"
	run=$(echo "$out" | sed -n 's/.*replay: go test -run=\([^)]*\)).*/\1/p')
	cat "$pkg/testdata/fuzz/${run}"
	echo "--- stock go test -run=$run"
	set +e
	(cd "$pkg" && go test -run="$run" . >"$work/replay-$2.log" 2>&1)
	status=$?
	set -e
	head -8 "$work/replay-$2.log"
	if [ "$status" -eq 0 ] || ! grep -q "slice bounds out of range" "$work/replay-$2.log"; then echo "FAIL: the $2 reproducer does not fail the same way"; exit 1; fi
}

echo "--- fuzzbox corpus import -from-libfuzzer"
replay "$crash" libfuzzer

echo "--- AFL++: fuzzbox build -libfuzzer with CXX=afl-clang-fast++ LIB_FUZZING_ENGINE=libAFLDriver.a"
(cd "$work/examples-afl/ossfuzz" && CXX=afl-clang-fast++ CXXFLAGS= LIB_FUZZING_ENGINE=/usr/lib/afl/libAFLDriver.a "$work/fuzzbox" build -libfuzzer -o "$work/afl" -fuzz=FuzzFrame .)
mkdir -p "$work/afl-in"
unzip -q "$work/afl/FuzzFrame_seed_corpus.zip" -d "$work/afl-in"
n=$(ls "$work/afl-in" | wc -l)
if [ "$n" -ne 3 ]; then echo "FAIL: $n seeds in the AFL++ build's zip, want 3"; exit 1; fi
echo "--- AFL++ sees the Go edge counters: afl-showmap of two seeds"
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
for s in seed-0 seed-1; do
	# "-": the driver reads the input from standard input (its usage text for afl-showmap and afl-cmin).
	afl-showmap -q -t 5000 -o "$work/map-$s" -- "$work/afl/FuzzFrame" - <"$work/afl-in/$s" >/dev/null 2>&1 || true
	echo "$s: $(wc -l <"$work/map-$s") map entries"
	# Measured: 10 and 12 entries, all of them counters of examples/ossfuzz (28 counters): the fuzz function's
	# edges only, not testing's report of the input (about 70 more before the counters were shadowed,
	# driver/build/cmpfilter.go), nor those of packages only testing and fuzzbox's runtime reach (21 more before
	# they were left uninstrumented, driver/build/reach.go).
	if [ "$(wc -l <"$work/map-$s")" -lt 6 ]; then echo "FAIL: AFL++'s map holds almost nothing for $s: the Go counters are not folded in"; exit 1; fi
done
# seed-1 (tag "pad") runs the pad branch of Frame, seed-0 (tag "len") does not: edges only seed-1 has. (Not an
# equality check of two runs: an edge of fmt's sync.Pool New function shows up after a garbage collection.)
more=$(comm -13 <(cut -d: -f1 "$work/map-seed-0") <(cut -d: -f1 "$work/map-seed-1") | wc -l)
echo "edges of seed-1 that seed-0 lacks: $more"
if [ "$more" -lt 2 ]; then echo "FAIL: AFL++'s map does not show the pad branch seed-1 runs"; exit 1; fi

echo "--- afl-fuzz -c 0 (CmpLog on the same binary), until the first crash or 180 s"
set +e
(cd "$work" && AFL_BENCH_UNTIL_CRASH=1 timeout 300 afl-fuzz -s 1 -V 180 -t 5000 -c 0 -i "$work/afl-in" -o "$work/afl-out" \
	-x "$work/afl/FuzzFrame.dict" -- "$work/afl/FuzzFrame" >"$work/afl.log" 2>&1)
status=$?
# afl-fuzz ending at the first crash left a child of its forkservers behind, stopped (seen after a CI run on
# 2026-12-01): every process of this run's binary is this script's, so none outlives it.
pkill -KILL -f -- "$work/afl/FuzzFrame" 2>/dev/null || true
set -e
stats="$work/afl-out/default/fuzzer_stats"
if [ ! -f "$stats" ]; then tail -30 "$work/afl.log"; echo "FAIL: afl-fuzz did not start (status $status)"; exit 1; fi
grep -E "^(execs_done|execs_per_sec|corpus_count|edges_found|stability|saved_crashes) " "$stats"
grep -a -E "Cmplog forkserver successfully started" "$work/afl.log" || { tail -30 "$work/afl.log"; echo "FAIL: no CmpLog forkserver"; exit 1; }
corpus=$(sed -n 's/^corpus_count *: *//p' "$stats")
if [ "$corpus" -le 3 ]; then echo "FAIL: afl-fuzz found no new coverage (corpus_count $corpus)"; exit 1; fi
crash=$(ls "$work"/afl-out/default/crashes/id:* 2>/dev/null | sed -n 1p)
if [ -z "$crash" ]; then tail -20 "$work/afl.log"; echo "FAIL: afl-fuzz did not find the planted bug"; exit 1; fi
echo "crash: $(basename "$crash")"
echo "--- the AFL++ crash in the binary, then fuzzbox corpus import -from-libfuzzer"
set +e
"$work/afl/FuzzFrame" "$crash" >"$work/afl-crash.log" 2>&1
status=$?
set -e
grep -a -m1 "slice bounds out of range" "$work/afl-crash.log" || { cat "$work/afl-crash.log"; echo "FAIL: the AFL++ crash does not reproduce (status $status)"; exit 1; }
replay "$crash" afl

echo "--- fuzzbox oss-fuzz init; its build.sh with OSS-Fuzz's environment (base-builder-go, SANITIZER=address)"
src="$work/src"
mkdir -p "$src" "$work/OUT"
cp -r examples "$src/examples"
"$work/fuzzbox" oss-fuzz init -dir "$src/examples"
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
# OSS-Fuzz's CXXFLAGS also have -stdlib=libc++, left out here: Debian's libclang_rt.fuzzer is built against
# libstdc++ (with libc++-16-dev installed, -stdlib=libc++ leaves libFuzzer's std::string symbols undefined).
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
