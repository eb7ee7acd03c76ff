package main

import "flag"

// minimizeFlags adds the flags of fuzzbox corpus minimize, which runs a target's
// whole corpus (seeds and generated) through the fuzzing binary and deletes
// the generated entries that add no coverage, smallest kept first, like
// libFuzzer's -merge=1 or afl-cmin. Seeds are never touched. It takes
// fuzzbox fuzz's flags.
func minimizeFlags(fs *flag.FlagSet) func(*invocation) int {
	return driverFlags(fs, "corpus minimize", "minimize: ", true)
}
