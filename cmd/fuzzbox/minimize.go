package main

import (
	"flag"

	"github.com/fuzzbox/fuzzbox/driver"
)

// minimizeFlags adds the flags of fuzzbox corpus minimize, which runs a target's
// whole corpus (seeds and generated) through the fuzzing binary and deletes
// the generated entries that add no coverage, smallest kept first, like
// libFuzzer's -merge=1 or afl-cmin. Seeds are never touched.
func minimizeFlags(fs *flag.FlagSet) func(*invocation) int {
	var f driver.Flags
	f.Register(fs)
	f.RegisterBuild(fs)
	return func(inv *invocation) int {
		cfg, err := f.Checked(inv.stderr)
		if err != nil {
			return inv.usageError("minimize: " + err.Error())
		}
		cfg.PruneOnly = true
		return fuzzMain(cfg, inv.Args(), f.JSON, inv.stdout, inv.stderr)
	}
}
