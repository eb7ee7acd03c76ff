package main

import (
	"flag"
	"fmt"

	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/lsp"
)

func init() {
	register(&command{name: "lsp", short: "run the editor sidecar (Language Server Protocol on stdio)", usage: lspUsage, flags: lspFlags})
}

const lspUsage = `usage: fuzzbox lsp [-fuzztime=d] [-parallel=n] [-tags=list] [-short] [-vet=list] [-testarg=arg ...]
                  [-gotestflag=f ...] [-logfile=FILE] [-gopls=PATH [gopls arguments]]

Lsp runs fuzzbox's Language Server Protocol sidecar on standard input and
output: code lenses to fuzz a fuzz test, run its seeds, rerun a corpus entry
and open a reproducer; fuzzvet diagnostics and fixes. Editors start it beside
gopls, or, with -gopls, in place of gopls: it then runs gopls behind itself and
merges both servers' answers (docs/editors.md); arguments after the flags are
passed to gopls.

Flags:
  -gopls PATH     proxy mode: start this gopls and forward every message to it
  -fuzztime d     bound of a fuzz run started from a lens (default: until stopped)
  -parallel n     fuzzing workers (default GOMAXPROCS)
  -tags list      build tags of every build, run, replay and debug session, as go test -tags
  -short          run tests and fuzz tests with -test.short, as go test -short
  -vet list       vet checks of every build of the tests, as go test -vet ("off": none)
  -testarg arg    an argument for the test binary, after its flags, as after go test -args
                  (a TestMain's own flags); repeat it for each argument
  -gotestflag f   an element of the editor's go.testFlags, read as go test reads its
                  command line: -tags, -short and -vet (over the flags above), go test's
                  build flags (-mod, -ldflags, ...), the test binary's flags and what
                  follows -args; what is go test's own runs' (-v, -run, -timeout, -race,
                  -count, -cover, ...) is left out, and logged; repeat it for each
  -logfile FILE   write the sidecar's own log there (default: standard error)
`

// lspFlags adds the flags of "fuzzbox lsp" (documented in lspUsage) to fs.
func lspFlags(fs *flag.FlagSet) func(*invocation) int {
	var opts lsp.Options
	fs.StringVar(&opts.Gopls, "gopls", "", "")
	fs.DurationVar(&opts.FuzzTime, "fuzztime", 0, "")
	fs.IntVar(&opts.Parallel, "parallel", 0, "")
	driver.TagsFlag(fs, &opts.Tags)
	driver.ShortFlag(fs, &opts.Short)
	driver.VetFlag(fs, &opts.Vet)
	fs.Func("testarg", "", func(a string) error { opts.TestArgs = append(opts.TestArgs, a); return nil })
	var goTestFlags []string
	fs.Func("gotestflag", "", func(f string) error { goTestFlags = append(goTestFlags, f); return nil })
	logfile := fs.String("logfile", "", "")
	return func(inv *invocation) int {
		if inv.NArg() > 0 && opts.Gopls == "" {
			return inv.usageError(fmt.Sprintf("arguments %q without -gopls", inv.Args()))
		}
		logger, closeLog, err := lsp.NewLog(*logfile, inv.stderr)
		if err != nil {
			fmt.Fprintf(inv.stderr, "fuzzbox lsp: %v\n", err)
			return exitUsage
		}
		defer closeLog()
		opts.ApplyGoTestFlags(goTestFlags, logger.Printf)
		ctx, stop := interruptible()
		defer stop()
		opts.GoplsArgs, opts.Logf = inv.Args(), logger.Printf
		if err := lsp.ServeStdio(ctx, opts); err != nil {
			logger.Print(err)
			return exitFinding
		}
		return exitOK
	}
}
