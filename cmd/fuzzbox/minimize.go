package main

import (
	"flag"
	"io"
)

// corpusMinimize implements fuzzbox corpus minimize: it runs a target's
// whole corpus (seeds and generated) through the fuzzing binary and deletes
// the generated entries that add no coverage, smallest kept first, like
// libFuzzer's -merge=1 or afl-cmin. Seeds are never touched.
func corpusMinimize(fs *flag.FlagSet, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	var f fuzzFlags
	f.register(fs)
	if code, ok := parseFlags(fs, args, 0, stdout, stderr); !ok {
		return code
	}
	cfg, err := f.Checked(stderr)
	if err != nil {
		return corpusUsageError(stderr, "minimize: "+err.Error())
	}
	cfg.PruneOnly = true
	return fuzzMain(cfg, fs.Args(), f.JSON, stdout, stderr)
}
