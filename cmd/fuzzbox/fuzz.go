package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

func init() {
	register(&command{name: "fuzz", short: "fuzz fuzz tests with the fuzzbox engine", run: runFuzz})
}

const fuzzUsage = `usage: fuzzbox fuzz [flags] [packages]
       fuzzbox fuzz -bin=BINARY [flags] [package directory]

Builds each package's test binary with fuzzbox's test main and coverage
instrumentation, runs the seed corpus, then fuzzes the fuzz tests matched by
-fuzz until -fuzztime is up, a failure is found, or Ctrl-C. A failing input is
re-run in a fresh worker, then written to testdata/fuzz/<FuzzTest>/ where
stock "go test -run" replays it; an input that does not fail again is
reported as flaky and not written (unless -keepflaky).

Packages default to "."; patterns such as ./... are allowed. When -fuzz
matches several fuzz tests they share the time and the workers: with
-fuzztime each gets an equal share, without it they take turns of one
minute until stopped. A fuzz test that fails leaves the rotation; the others
go on. With several fuzz tests, -run defaults to ^$ (no tests run first).

With -bin, nothing is built: BINARY is a fuzzing binary built elsewhere
(by the Bazel rules, or with fuzzbox testmain) and the argument is its
package directory, where it runs and reproducers are written.

Exit status: 0 nothing found, 1 a failure was found, 2 usage or build error.

Flags:
`

// fuzzFlags registers fuzzbox fuzz's flags into a driver.Config.
type fuzzFlags struct {
	cfg        driver.Config
	json       bool
	rssLimitMB int
}

func (f *fuzzFlags) register(fs *flag.FlagSet) {
	c := &f.cfg
	fs.StringVar(&c.Fuzz, "fuzz", "", "regexp matching the fuzz test to fuzz (required)")
	fs.StringVar(&c.FuzzTime, "fuzztime", "", "time to fuzz (duration, or Nx for N executions over all workers); default until stopped")
	fs.StringVar(&c.MinimizeTime, "fuzzminimizetime", "60s", "time (or Nx executions) to minimize a failing input; 0x turns minimization off")
	fs.IntVar(&c.Parallel, "parallel", 0, "worker processes (default GOMAXPROCS)")
	fs.StringVar(&c.Run, "run", "", "regexp of tests to run before fuzzing, as go test -run (default: all with one fuzz test, none with several)")
	fs.BoolVar(&c.Race, "race", false, "build with the race detector; a data race is a failure")
	fs.StringVar(&c.Tags, "tags", "", "comma-separated build tags")
	fs.BoolVar(&c.Verbose, "v", false, "verbose test output")
	fs.DurationVar(&c.Timeout, "timeout", ipc.DefaultTimeout, "per-input hang limit: an input running longer is a failure of kind hang")
	fs.IntVar(&f.rssLimitMB, "rss_limit_mb", ipc.DefaultRSSLimitMB, "per-worker memory limit in MiB (0 = off): exceeding it is a failure of kind oom")
	fs.StringVar(&c.CacheDir, "cachedir", "", "directory of the generated corpus (default: the user cache dir, fuzzbox/fuzz/<import path>)")
	fs.BoolVar(&f.json, "json", false, "print the JSON event stream (docs/engine.md) instead of text")
	fs.BoolVar(&c.KeepGoing, "keepgoing", false, "keep fuzzing after a failure; write one reproducer per unique failure")
	fs.BoolVar(&c.KeepFlaky, "keepflaky", false, "write a reproducer for a failure that did not fail again when re-run in a fresh worker")
	fs.StringVar(&c.Dict, "dict", "", "dictionary file in the AFL/libFuzzer format")
	fs.StringVar(&c.Binary, "bin", "", "fuzz this prebuilt fuzzing binary instead of building; the argument is its package directory")
	fs.StringVar(&c.Schedule, "schedule", "", "corpus schedule: roundrobin (default) or power")
	fs.BoolVar(&c.NoCmp, "nocmp", false, "turn comparison guidance off (benchmark ablation)")
	fs.BoolVar(&c.NoSourceDict, "nosourcedict", false, "no dictionary of the package's literals (benchmark ablation)")
}

// config returns the driver configuration the flags set.
func (f *fuzzFlags) config(stderr io.Writer) (driver.Config, error) {
	c := f.cfg
	switch {
	case f.rssLimitMB < 0:
		return c, errors.New("-rss_limit_mb must be >= 0")
	case c.Timeout <= 0:
		return c, errors.New("-timeout must be > 0")
	case f.rssLimitMB == 0:
		c.RSSLimitMB = -1 // off
	default:
		c.RSSLimitMB = f.rssLimitMB
	}
	c.Stderr = stderr
	return c, c.Check()
}

func runFuzz(args []string, stdout, stderr io.Writer) int {
	var f fuzzFlags
	fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, fuzzUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return exitOK
		}
		return fuzzUsageError(stderr, fs, err.Error())
	}
	cfg, err := f.config(stderr)
	if err != nil {
		return fuzzUsageError(stderr, fs, err.Error())
	}
	return fuzzMain(cfg, fs.Args(), f.json, stdout, stderr)
}

func fuzzUsageError(stderr io.Writer, fs *flag.FlagSet, msg string) int {
	fmt.Fprintf(stderr, "fuzzbox fuzz: %s\n%s", msg, fuzzUsage)
	fs.SetOutput(stderr)
	fs.PrintDefaults()
	return exitUsage
}

// fuzzMain runs the driver until it is done or the process gets SIGINT or
// SIGTERM, printing its events, and returns the exit code.
func fuzzMain(cfg driver.Config, pkgs []string, asJSON bool, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p := &printer{w: stdout, json: asJSON}
	res := driver.Fuzz(ctx, cfg, pkgs, p.print)
	if res.Err != nil {
		fmt.Fprintf(stderr, "fuzzbox fuzz: %s\n", oneLine(res.Err))
	}
	if !asJSON && len(res.Targets) > 1 {
		printSummary(stdout, res)
	}
	return res.ExitCode
}

// printer prints events as JSON lines, or as status lines and the fuzzing
// binary's output; with several targets, status lines name theirs.
type printer struct {
	mu    sync.Mutex
	w     io.Writer
	json  bool
	names map[string]bool
}

func (p *printer) print(e event.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		event.Encode(p.w, e)
		return
	}
	if e.Type == event.Output {
		io.WriteString(p.w, e.Output)
		return
	}
	line := event.Format(e)
	if line == "" {
		return
	}
	if p.names == nil {
		p.names = map[string]bool{}
	}
	if e.Target != "" {
		p.names[e.Package+"."+e.Target] = true
	}
	if len(p.names) > 1 && e.Target != "" {
		line = "[" + e.Target + "] " + line
	}
	fmt.Fprintln(p.w, line)
}

// printSummary prints the per-target results of a multi-target run.
func printSummary(w io.Writer, res driver.Result) {
	fmt.Fprintf(w, "\nfuzzbox: %d fuzz tests:\n", len(res.Targets))
	for _, r := range res.Targets {
		status, detail := "ok  ", fmt.Sprintf("%d execs", r.Execs)
		switch {
		case len(r.Failures) > 0:
			var parts []string
			for _, f := range r.Failures {
				parts = append(parts, f.Kind+" -> "+f.Reproducer)
			}
			status, detail = "FAIL", strings.Join(parts, ", ")
		case r.Err != "":
			status, detail = "ERR ", r.Err
		case r.ExitCode != driver.ExitOK:
			status, detail = "FAIL", "tests failed (see output)"
		}
		if len(r.Flaky) > 0 {
			detail += fmt.Sprintf(" (%d flaky, not written)", len(r.Flaky))
		}
		fmt.Fprintf(w, "  %s  %-50s %s\n", status, r.Target, detail)
	}
}
