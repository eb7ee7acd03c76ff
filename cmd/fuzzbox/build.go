package main

import (
	"flag"
	"fmt"

	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/driver/build"
)

func init() {
	register(&command{name: "build",
		short: "build fuzz tests into libFuzzer binaries for OSS-Fuzz and ClusterFuzzLite",
		usage: buildUsage, flags: buildFlags})
}

const buildUsage = `usage: fuzzbox build -libfuzzer -o DIR [-fuzz=REGEXP] [-tags=TAGS] [PACKAGE]

Build compiles each fuzz test of PACKAGE (default ".") matching -fuzz into a
libFuzzer-compatible binary DIR/FuzzX, linked with clang and the fuzzing engine
($CXX $CXXFLAGS $LIB_FUZZING_ENGINE as OSS-Fuzz sets them; by default clang
-fsanitize=fuzzer), and writes beside it FuzzX_seed_corpus.zip (every f.Add seed
and testdata/fuzz/FuzzX file), FuzzX.dict (the string literals of the package
and of the non-standard packages it imports, and the saved automatic
dictionary) and FuzzX.options. Inputs use the
fuzzbox-libfuzzer-v1 encoding (docs/oss-fuzz.md); "fuzzbox corpus import
-from-libfuzzer" turns a crash file into a go test reproducer.

Flags:
`

// buildFlags adds the flags of "fuzzbox build" to fs.
func buildFlags(fs *flag.FlagSet) func(*invocation) int {
	opts := build.LibFuzzerOptions{CacheDir: driver.DefaultCacheDir}
	libfuzzer := fs.Bool("libfuzzer", false, "build libFuzzer binaries (the only mode)")
	fs.StringVar(&opts.OutDir, "o", "", "output `DIR` (required)")
	fs.StringVar(&opts.Fuzz, "fuzz", "", "`REGEXP` selecting fuzz tests (default all)")
	driver.TagsFlag(fs, &opts.Tags)
	return func(inv *invocation) int {
		if !*libfuzzer || opts.OutDir == "" || inv.NArg() > 1 {
			return inv.usageError("want -libfuzzer, -o DIR and at most one PACKAGE")
		}
		opts.Package, opts.Stderr = inv.Arg(0), inv.stderr
		ctx, stop := interruptible()
		defer stop()
		targets, err := build.BuildLibFuzzer(ctx, opts)
		if err != nil {
			fmt.Fprintf(inv.stderr, "fuzzbox build: %s\n", oneLine(err))
			return exitUsage
		}
		for _, t := range targets {
			fmt.Fprintln(inv.stdout, t)
			if t.Warning != "" {
				fmt.Fprintf(inv.stderr, "fuzzbox build: warning: %s\n", t.Warning)
			}
		}
		return exitOK
	}
}
