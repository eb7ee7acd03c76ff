package main

import (
	"flag"
	"fmt"
	"io"
	"regexp"
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
	if f.fuzz == "" {
		return corpusUsageError(stderr, "minimize: -fuzz is required")
	}
	if _, err := regexp.Compile(f.fuzz); err != nil {
		return corpusUsageError(stderr, fmt.Sprintf("minimize: -fuzz: %v", err))
	}
	pkgs := fs.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	r := &fuzzRun{flags: f, pkgs: pkgs, pruneOnly: true, stdout: stdout, stderr: stderr}
	return r.run()
}
