package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/fuzzbox/fuzzbox/lsp"
)

func init() {
	register(&command{name: "lsp", short: "run the editor sidecar (Language Server Protocol on stdio)", run: runLSP})
}

const lspUsage = `usage: fuzzbox lsp [-fuzztime=d] [-parallel=n] [-gopls=PATH [gopls arguments]]

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
  -logfile FILE   write the sidecar's own log there (default: standard error)
`

// runLSP implements "fuzzbox lsp".
func runLSP(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fuzzbox lsp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	gopls := fs.String("gopls", "", "")
	fuzztime := fs.Duration("fuzztime", 0, "")
	parallel := fs.Int("parallel", 0, "")
	logfile := fs.String("logfile", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, lspUsage)
			return exitOK
		}
		fmt.Fprintf(stderr, "fuzzbox lsp: %v\n%s", err, lspUsage)
		return exitUsage
	}
	if fs.NArg() > 0 && *gopls == "" {
		fmt.Fprintf(stderr, "fuzzbox lsp: arguments %q without -gopls\n%s", fs.Args(), lspUsage)
		return exitUsage
	}
	logw := stderr
	if *logfile != "" {
		f, err := os.OpenFile(*logfile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "fuzzbox lsp: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		logw = f
	}
	logger := log.New(logw, "fuzzbox lsp: ", log.LstdFlags)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := lsp.Options{Gopls: *gopls, GoplsArgs: fs.Args(), FuzzTime: *fuzztime, Parallel: *parallel, Logf: logger.Printf}
	if err := lsp.ServeStdio(ctx, opts); err != nil {
		logger.Print(err)
		return exitFinding
	}
	return exitOK
}
