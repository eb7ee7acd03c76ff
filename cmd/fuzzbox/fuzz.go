package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fuzzbox/fuzzbox/engine"
	"github.com/fuzzbox/fuzzbox/engine/build"
)

func init() {
	register(&command{name: "fuzz", short: "fuzz fuzz tests with the fuzzbox engine", run: runFuzz})
}

const fuzzUsage = `usage: fuzzbox fuzz [flags] [packages]

Builds each package's test binary with fuzzbox's test main and coverage
instrumentation, runs the seed corpus, then fuzzes the fuzz tests matched by
-fuzz until -fuzztime is up, a failure is found, or Ctrl-C. A failing input is
written to testdata/fuzz/<FuzzTest>/ where stock "go test -run" replays it.

Packages default to "."; patterns such as ./... are allowed. When -fuzz
matches several fuzz tests they share the time and the workers: with
-fuzztime each gets an equal share, without it they take turns of one
minute until stopped. A fuzz test that fails leaves the rotation; the others
go on. With several fuzz tests, -run defaults to ^$ (no tests run first).

Exit status: 0 nothing found, 1 a failure was found, 2 usage or build error.

Flags:
`

// fuzzFlags are the flags of fuzzbox fuzz.
type fuzzFlags struct {
	fuzz, run, tags, cachedir, dict string
	fuzztime, minimizetime          string
	parallel, rssLimitMB            int
	timeout                         time.Duration
	race, verbose, json, keepgoing  bool
}

func (f *fuzzFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.fuzz, "fuzz", "", "regexp matching the fuzz test to fuzz (required)")
	fs.StringVar(&f.fuzztime, "fuzztime", "", "time to fuzz (duration, or Nx for N executions over all workers); default until stopped")
	fs.StringVar(&f.minimizetime, "fuzzminimizetime", "60s", "time (or Nx executions) to minimize a failing input; 0x turns minimization off")
	fs.IntVar(&f.parallel, "parallel", 0, "worker processes (default GOMAXPROCS)")
	fs.StringVar(&f.run, "run", "", "regexp of tests to run before fuzzing, as go test -run (default: all with one fuzz test, none with several)")
	fs.BoolVar(&f.race, "race", false, "build with the race detector; a data race is a failure")
	fs.StringVar(&f.tags, "tags", "", "comma-separated build tags")
	fs.BoolVar(&f.verbose, "v", false, "verbose test output")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "per-input hang limit: an input running longer is a failure of kind hang")
	fs.IntVar(&f.rssLimitMB, "rss_limit_mb", 2048, "per-worker memory limit in MiB (0 = off): exceeding it is a failure of kind oom")
	fs.StringVar(&f.cachedir, "cachedir", "", "directory of the generated corpus (default: the user cache dir, fuzzbox/fuzz/<import path>)")
	fs.BoolVar(&f.json, "json", false, "print a JSON event stream (docs/engine.md) instead of text")
	fs.BoolVar(&f.keepgoing, "keepgoing", false, "keep fuzzing after a failure; write one reproducer per unique failure")
	fs.StringVar(&f.dict, "dict", "", "dictionary file in the AFL/libFuzzer format")
}

var nxRE = regexp.MustCompile(`^[0-9]+x$`)

// check validates flag values, returning a one-line reason.
func (f *fuzzFlags) check() error {
	if f.fuzz == "" {
		return errors.New("-fuzz is required")
	}
	if _, err := regexp.Compile(f.fuzz); err != nil {
		return fmt.Errorf("-fuzz: %v", err)
	}
	for name, v := range map[string]string{"-fuzztime": f.fuzztime, "-fuzzminimizetime": f.minimizetime} {
		if v == "" || nxRE.MatchString(v) {
			continue
		}
		if d, err := time.ParseDuration(v); err != nil || d < 0 {
			return fmt.Errorf("%s: %q is neither a duration nor Nx", name, v)
		}
	}
	if f.parallel < 0 || f.rssLimitMB < 0 || f.timeout <= 0 {
		return errors.New("-parallel and -rss_limit_mb must be >= 0, -timeout > 0")
	}
	return nil
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
	if err := f.check(); err != nil {
		return fuzzUsageError(stderr, fs, err.Error())
	}
	pkgs := fs.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	r := &fuzzRun{flags: f, pkgs: pkgs, stdout: stdout, stderr: stderr}
	return r.run()
}

func fuzzUsageError(stderr io.Writer, fs *flag.FlagSet, msg string) int {
	fmt.Fprintf(stderr, "fuzzbox fuzz: %s\n%s", msg, fuzzUsage)
	fs.SetOutput(stderr)
	fs.PrintDefaults()
	return exitUsage
}

// fuzzRun is one invocation of fuzzbox fuzz (or of fuzzbox corpus minimize,
// which runs the same way with pruneOnly).
type fuzzRun struct {
	flags          fuzzFlags
	pkgs           []string
	pruneOnly      bool
	stdout, stderr io.Writer
	out            *lockedWriter // serialized stdout: events and output come from two pipes
	start          time.Time
	multi          bool // several targets: prefix status lines with the target
	interrupted    atomic.Bool
}

// targetResult is what one target's runs came to.
type targetResult struct {
	target   fuzzTarget
	execs    int64
	failures []engine.Event
	exit     int
	err      string
}

func (r *fuzzRun) run() int {
	r.start = time.Now()
	r.out = &lockedWriter{w: r.stdout}
	tmp, err := os.MkdirTemp("", "fuzzbox-fuzz-")
	if err != nil {
		return r.fail(err)
	}
	defer os.RemoveAll(tmp)
	self, err := os.Executable()
	if err != nil {
		return r.fail(err)
	}
	r.event(engine.Event{Type: "build", Package: strings.Join(r.pkgs, " ")})
	targets, err := resolveTargets(context.Background(), r.pkgs, regexp.MustCompile(r.flags.fuzz),
		build.Options{Race: r.flags.race, Tags: r.flags.tags, Toolexec: []string{self, "toolexec"}, Stderr: r.stderr}, tmp, r.flags.dict)
	if err != nil {
		return r.fail(err)
	}
	r.multi = len(targets) > 1
	results := r.schedule(targets)
	code := r.summarize(results)
	r.event(engine.Event{Type: "exit", ExitCode: &code})
	return code
}

// fail reports err in one line and returns the usage/build exit code.
func (r *fuzzRun) fail(err error) int {
	code := exitUsage
	r.event(engine.Event{Type: "exit", Error: oneLine(err), ExitCode: &code})
	fmt.Fprintf(r.stderr, "fuzzbox fuzz: %s\n", oneLine(err))
	return code
}

// rotationSlice is each target's turn when several share an open-ended run.
const rotationSlice = time.Minute

// schedule runs the targets, sharing -fuzztime equally (or taking turns of
// rotationSlice until interrupted when there is no -fuzztime).
func (r *fuzzRun) schedule(targets []fuzzTarget) []*targetResult {
	results := make([]*targetResult, len(targets))
	for i, t := range targets {
		results[i] = &targetResult{target: t}
	}
	share, open := r.share(len(targets))
	for {
		ran := false
		for _, res := range results {
			if r.interrupted.Load() || len(res.failures) > 0 || res.err != "" {
				continue
			}
			ran = true
			r.runTarget(res, share)
		}
		if !open || !ran || r.interrupted.Load() {
			return results
		}
	}
}

// share returns each target's -fuzztime value and whether the run is
// open-ended (turns repeat until interrupted).
func (r *fuzzRun) share(n int) (string, bool) {
	ft := r.flags.fuzztime
	switch {
	case r.pruneOnly:
		return "", false
	case n == 1:
		return ft, false
	case ft == "":
		return rotationSlice.String(), true
	case nxRE.MatchString(ft):
		total, _ := strconv.ParseInt(strings.TrimSuffix(ft, "x"), 10, 64)
		return fmt.Sprintf("%dx", max(1, total/int64(n))), false
	}
	d, _ := time.ParseDuration(ft)
	return (d / time.Duration(n)).String(), false
}

// summarize prints the per-target results of a multi-target run and
// returns the exit code.
func (r *fuzzRun) summarize(results []*targetResult) int {
	code := exitOK
	for _, res := range results {
		switch {
		case res.err != "" || res.exit == exitUsage:
			code = exitUsage
		case (len(res.failures) > 0 || res.exit == exitFinding) && code == exitOK:
			code = exitFinding
		}
	}
	if !r.multi || r.flags.json {
		return code
	}
	fmt.Fprintf(r.stdout, "\nfuzzbox: %d fuzz tests:\n", len(results))
	for _, res := range results {
		status := "ok  "
		detail := fmt.Sprintf("%d execs", res.execs)
		switch {
		case len(res.failures) > 0:
			status = "FAIL"
			var parts []string
			for _, f := range res.failures {
				parts = append(parts, f.Kind+" -> "+f.Reproducer)
			}
			detail = strings.Join(parts, ", ")
		case res.err != "":
			status, detail = "ERR ", res.err
		case res.exit != exitOK:
			status, detail = "FAIL", "tests failed (see output)"
		}
		fmt.Fprintf(r.stdout, "  %s  %-50s %s\n", status, res.target, detail)
	}
	return code
}
