package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// fuzzFlags are fuzzbox fuzz's flags (cmd/fuzzbox/fuzz.go), minus the ones
// that make no sense for a binary Bazel built (-bin, -race, -tags: the
// target's attributes decide them). Keep in sync with cmd/fuzzbox/fuzz.go;
// runner_test.go checks that both take the same flags.
type fuzzFlags struct {
	cfg        driver.Config
	json       bool
	rssLimitMB int
}

func (f *fuzzFlags) register(fs *flag.FlagSet) {
	c := &f.cfg
	fs.StringVar(&c.Fuzz, "fuzz", "", "regexp matching the fuzz tests to fuzz (the target sets its fuzz attribute)")
	fs.StringVar(&c.FuzzTime, "fuzztime", "", "time to fuzz (duration, or Nx for N executions over all workers); the target sets its fuzztime attribute")
	fs.StringVar(&c.MinimizeTime, "fuzzminimizetime", "60s", "time (or Nx executions) to minimize a failing input; 0x turns minimization off")
	fs.IntVar(&c.Parallel, "parallel", 0, "worker processes (default GOMAXPROCS)")
	fs.StringVar(&c.Run, "run", "", "regexp of tests to run before fuzzing, as go test -run (default: all with one fuzz test, none with several)")
	fs.BoolVar(&c.Verbose, "v", false, "verbose test output")
	fs.DurationVar(&c.Timeout, "timeout", ipc.DefaultTimeout, "per-input hang limit: an input running longer is a failure of kind hang")
	fs.IntVar(&f.rssLimitMB, "rss_limit_mb", ipc.DefaultRSSLimitMB, "per-worker memory limit in MiB (0 = off): exceeding it is a failure of kind oom")
	fs.StringVar(&c.CacheDir, "cachedir", "", "directory of the generated corpus (bazel run: the user cache dir, fuzzbox/fuzz/<import path>; bazel test: in TEST_TMPDIR)")
	fs.BoolVar(&f.json, "json", false, "print the JSON event stream (docs/engine.md) instead of text")
	fs.BoolVar(&c.KeepGoing, "keepgoing", false, "keep fuzzing after a failure; write one reproducer per unique failure")
	fs.BoolVar(&c.KeepFlaky, "keepflaky", false, "write a reproducer for a failure that did not fail again when re-run in a fresh worker")
	fs.StringVar(&c.Dict, "dict", "", "dictionary file in the AFL/libFuzzer format")
	fs.StringVar(&c.Schedule, "schedule", "", "corpus schedule: roundrobin (default) or power")
	fs.BoolVar(&c.NoCmp, "nocmp", false, "turn comparison guidance off (benchmark ablation)")
	fs.BoolVar(&c.NoSourceDict, "nosourcedict", false, "no dictionary of the package's literals (benchmark ablation)")
}

// config returns the driver configuration the flags set, as fuzzbox fuzz does.
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
	return c, nil
}

// relativeTo makes the path flags absolute against dir (bazel run's
// BUILD_WORKING_DIRECTORY: where the user typed the command).
func (f *fuzzFlags) relativeTo(dir string) {
	for _, p := range []*string{&f.cfg.CacheDir, &f.cfg.Dict} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
}

// printer prints events as fuzzbox fuzz does: JSON lines, or status lines
// and the fuzzing binary's output; with several targets, status lines name
// theirs. It also hands every event to tee, if set.
type printer struct {
	mu    sync.Mutex
	w     io.Writer
	json  bool
	names map[string]bool
	tee   func(event.Event)
}

func (p *printer) print(e event.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tee != nil {
		p.tee(e)
	}
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

// printSummary prints the per-target results of a multi-target run, as
// fuzzbox fuzz does.
func printSummary(w io.Writer, res driver.Result) {
	fmt.Fprintf(w, "\nfuzzbox: %d fuzz tests:\n", len(res.Targets))
	for _, r := range res.Targets {
		status, detail := targetStatus(r)
		fmt.Fprintf(w, "  %s  %-50s %s\n", status, r.Target.Name, detail)
	}
}

func targetStatus(r driver.TargetResult) (status, detail string) {
	status, detail = "ok  ", fmt.Sprintf("%d execs", r.Execs)
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
	return status, detail
}

func oneLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
