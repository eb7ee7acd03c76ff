package main

import (
	"context"
	"flag"
	"io"

	"github.com/fuzzbox/fuzzbox/driver"
)

func init() {
	register(&command{name: "cover", short: "HTML coverage report of what a fuzz test's corpus reaches", usage: coverUsage,
		flags: func(fs *flag.FlagSet) func(*invocation) int {
			var f coverFlags
			f.register(fs)
			return f.check
		}, testArgs: true})
}

const coverUsage = `usage: fuzzbox cover -fuzz=FuzzX [-json] [flags] [package] [-args test binary arguments]

Replays every corpus entry of one fuzz test (its f.Add seeds, the seed corpus
in testdata/fuzz/FuzzX/ and the generated corpus in the cache dir) through a
stock "go test -cover" test binary and writes an HTML coverage report, as
"go tool cover -html" does, of the lines the corpus reaches.

The replay runs in a temporary mirror of the package directory; nothing is
written into the module. An entry that crashes the test binary (panic,
os.Exit, hang) is skipped and replayed no more; its coverage is not counted.
See docs/cover.md.

With -json, the report is printed as JSON instead (per file and function:
covered and total statements, and which corpus entries reach each function;
docs/cover.md has the schema); no HTML is written unless -o is given.

Exit status: 0 report written, 1 report written but some entry failed,
crashed or could not be read, 2 usage or build error.

Flags:
`

// coverFlags are the flags of fuzzbox cover.
type coverFlags struct {
	cfg         driver.Config
	opts        driver.CoverOptions
	funcs, json bool
}

func (f *coverFlags) register(fs *flag.FlagSet) {
	c, o := &f.cfg, &f.opts
	fs.StringVar(&c.Fuzz, "fuzz", "", "regexp matching the fuzz test whose corpus to replay (required)")
	driver.CacheDirFlag(fs, &c.CacheDir)
	fs.BoolVar(&o.GoCache, "gocache", false, "also replay the go command's generated corpus ($GOCACHE/fuzz/<import path>/<FuzzX>)")
	fs.StringVar(&o.CoverPkg, "coverpkg", "", "packages to measure, as go test -coverpkg (default: the package)")
	fs.StringVar(&o.HTML, "o", "", "HTML report file (default: fuzzbox-cover-<pkg>-<FuzzX>.html in the temp dir; none with -json)")
	fs.StringVar(&o.Profile, "coverprofile", "", "also write the text coverage profile to this file")
	fs.BoolVar(&f.funcs, "func", false, "print per-function coverage (go tool cover -func) to stdout")
	fs.BoolVar(&f.json, "json", false, "print the report as JSON, with the corpus entries that reach each function")
	driver.TagsFlag(fs, &c.Tags)
	driver.VetFlag(fs, &c.Vet)
	driver.ShortFlag(fs, &c.Short)
	fs.DurationVar(&c.ReplayLimit, "timeout", driver.DefaultReplayLimit, "limit of one replay of the whole corpus; an entry still running then counts as crashed")
}

// check checks the flags and arguments, then runs the command.
func (f *coverFlags) check(inv *invocation) int {
	switch {
	case f.cfg.Fuzz == "":
		return inv.usageError("-fuzz is required")
	case inv.NArg() > 1:
		return inv.usageError("one package at a time")
	case f.cfg.ReplayLimit < 0:
		return inv.usageError("-timeout must be >= 0") // 0: the default, as for fuzzbox fuzz
	}
	f.cfg.TestArgs = inv.testArgs
	if err := f.cfg.Check(); err != nil { // -fuzz, as every command reads it
		return inv.usageError(err.Error())
	}
	return f.run(inv.Arg(0), inv.stdout, inv.stderr)
}

// run makes the report of the one fuzz test -fuzz matches in pkg and
// prints it.
func (f *coverFlags) run(pkg string, stdout, stderr io.Writer) int {
	out := driver.Output{Stdout: stdout, Stderr: stderr, Prefix: "fuzzbox cover", JSON: f.json}
	return driver.RunCover(context.Background(), f.cfg, pkg, f.opts, f.funcs, out)
}
