package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/fuzzbox/fuzzbox/driver"
)

// mergeFlags adds the flags of
// fuzzbox corpus merge -fuzz=FuzzX [-pkg DIR] [-cachedir DIR] [-from-libfuzzer [-types LIST]] DIR...
// The corpora of several machines, shards or cloud runs go into one
// package's generated corpus (driver.MergeCorpus), then the cache is pruned
// to a smallest set of entries with the same coverage (corpus minimize), so
// only entries that add coverage stay.
func mergeFlags(fs *flag.FlagSet) func(*invocation) int {
	var cfg driver.Config
	fs.StringVar(&cfg.Fuzz, "fuzz", "", "the fuzz test `FuzzX` (required)")
	driver.CacheDirFlag(fs, &cfg.CacheDir)
	driver.TagsFlag(fs, &cfg.Tags)
	driver.VetFlag(fs, &cfg.Vet)
	asJSON := fs.Bool("json", false, "print the pruning run's JSON event stream")
	pkg := fs.String("pkg", ".", "package `DIR` of the fuzz test")
	fromLibFuzzer := fs.Bool("from-libfuzzer", false, "the DIRs hold libFuzzer inputs (fuzzbox-libfuzzer-v1), not go test fuzz v1 files")
	typeList := fs.String("types", "", "argument `types` for -from-libfuzzer (default: read from the package source)")
	return func(inv *invocation) int {
		m, err := driver.MergeCorpus(cfg, *pkg, inv.Args(), *typeList, *fromLibFuzzer)
		if errors.Is(err, driver.ErrNotOneFuzzTest) {
			return inv.usageError("merge: -fuzz must name one fuzz test (FuzzX or ^FuzzX$)")
		}
		if err != nil {
			report(inv.stderr, "fuzzbox corpus merge: ", err)
			return exitUsage
		}
		code := report(inv.stderr, "fuzzbox corpus merge: ", m.Errs...)
		fmt.Fprintf(inv.stdout, "merge: %d new entries in %s (%d already there); pruning to the entries that add coverage\n", m.Added, m.Dest, m.Present)
		if c := fuzzMain(m.Prune, []string{*pkg}, *asJSON, "fuzzbox corpus merge", inv.stdout, inv.stderr); c != exitOK {
			return c
		}
		fmt.Fprintf(inv.stdout, "merge: %d entries in %s\n", m.Entries(), m.Dest)
		return code
	}
}
