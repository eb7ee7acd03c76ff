package driver

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/driver/build"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// What the front ends that fuzz share: their flags (Flags) and the way they
// run a command line and print the run (Run, Output, Result.WriteSummary).

// Flags are the command-line flags every front end that fuzzes takes
// (fuzzbox fuzz, fuzzbox corpus minimize, the Bazel runner), registered once
// here so that they are the same everywhere. A front end that builds the
// fuzzing binary adds RegisterBuild's; the Bazel runner does not (the rules
// build it).
type Flags struct {
	Config      // the flags' values; Checked returns the checked result
	JSON   bool // -json: print the event stream instead of text
}

// Register adds the flags to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	c := &f.Config
	fs.StringVar(&c.Fuzz, "fuzz", "", "regexp matching the fuzz tests to fuzz (required)")
	fs.StringVar(&c.FuzzTime, "fuzztime", "", "time to fuzz (duration, or Nx for N executions over all workers); default until stopped")
	fs.StringVar(&c.MinimizeTime, "fuzzminimizetime", ipc.DefaultMinimizeTime, "time (or Nx executions) to minimize a failing input; 0x turns minimization off")
	fs.IntVar(&c.Parallel, "parallel", 0, "worker processes (default GOMAXPROCS)")
	fs.StringVar(&c.Run, "run", "", "regexp of tests to run before fuzzing, as go test -run (default: all; with several fuzz tests, once per package, in its first fuzz test's turn)")
	fs.StringVar(&c.Skip, "skip", "", "regexp of tests not to run, as go test -skip")
	fs.BoolVar(&c.Verbose, "v", false, "verbose test output")
	ShortFlag(fs, &c.Short)
	fs.DurationVar(&c.Timeout, "timeout", ipc.DefaultTimeout, "per-input hang limit: an input running longer is a failure of kind hang (0: the default, as go test -fuzz -timeout=0 still reports hangs)")
	fs.StringVar(&c.Sync, "sync", "", "directory shared with other fuzzbox instances: each publishes the inputs that add coverage and imports the others'")
	fs.DurationVar(&c.Plateau, "plateau", 0, "stop a fuzz test after this long without new coverage (0 = never); with several, the -fuzztime it leaves goes to the next")
	fs.IntVar(&c.RSSLimitMB, "rss_limit_mb", DefaultRSSLimitMB, "per-worker memory limit in MiB (0 = off): exceeding it is a failure of kind oom")
	CacheDirFlag(fs, &c.CacheDir)
	fs.BoolVar(&f.JSON, "json", false, "print the JSON event stream (docs/engine.md) instead of text")
	fs.BoolVar(&c.KeepGoing, "keepgoing", false, "keep fuzzing after a failure; write one reproducer per unique failure")
	fs.BoolVar(&c.KeepFlaky, "keepflaky", false, "write a reproducer for a failure that did not fail again when re-run in a fresh worker")
	fs.Var(notFlag{&c.NoLeaks}, "leaks", "detect goroutine leaks: goroutines an input started, still blocked after it returned, are a failure of kind leak (default true; -leaks=false turns it off)")
	fs.Var(notFlag{&c.NoGoCache}, "gocache", "start from go test -fuzz's generated corpus too ($GOCACHE/fuzz/<import path>/FuzzX): its entries join fuzzbox's, each once (default true; -gocache=false turns it off)")
	fs.StringVar(&c.Dict, "dict", "", "dictionary file in the AFL/libFuzzer format")
	fs.StringVar(&c.Schedule, "schedule", "", "corpus schedule: "+ipc.ScheduleRoundRobin+" (default) or "+ipc.SchedulePower)
	fs.BoolVar(&c.NoCmp, "nocmp", false, "turn comparison guidance off (benchmark ablation)")
	fs.BoolVar(&c.NoSourceDict, "nosourcedict", false, "no dictionary of the package's literals (benchmark ablation)")
}

// notFlag is a boolean flag whose variable holds its negation: Config's
// zero values are the defaults, and -leaks is on by default.
type notFlag struct{ p *bool }

func (f notFlag) String() string {
	if f.p == nil {
		return "true"
	}
	return strconv.FormatBool(!*f.p)
}

// Set implements flag.Value.
func (f notFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*f.p = !v
	return nil
}

// IsBoolFlag makes -leaks alone mean -leaks=true.
func (f notFlag) IsBoolFlag() bool { return true }

// RegisterBuild adds the flags of a front end that builds the fuzzing
// binary (fuzzbox fuzz, fuzzbox corpus minimize) to fs: -race, -racetwin,
// -tags, -vet, -bin, -stockbin.
func (f *Flags) RegisterBuild(fs *flag.FlagSet) {
	c := &f.Config
	fs.BoolVar(&c.Race, "race", false, "build with the race detector; a data race is a failure")
	fs.BoolVar(&c.RaceTwin, "racetwin", DefaultRaceTwin, "also build with the race detector and replay each new corpus entry in one background worker of that build: a data race is a failure of kind race")
	TagsFlag(fs, &c.Tags)
	VetFlag(fs, &c.Vet)
	fs.StringVar(&c.Binary, "bin", "", "fuzz this prebuilt fuzzing binary instead of building; the argument is its package directory")
	fs.StringVar(&c.StockBinary, "stockbin", "", "with -bin: the package's test binary built without fuzzbox (go test -c, or your build system's test), which replays failures to check they are your code's; without it, -bin's failures are reported unchecked")
}

// TagsFlag adds -tags, the build tags (Config.Tags), to fs with p as its
// variable: one declaration for every command that builds (fuzzbox fuzz,
// cover, build, corpus minimize and merge).
func TagsFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "tags", "", "comma-separated build tags")
}

// VetFlag adds -vet (Config.Vet) to fs with p as its variable, for every
// command that builds the package's tests.
func VetFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "vet", "", "go vet checks to run when building the tests, as go test -vet: \"off\", or a comma-separated list (default: the checks go test runs)")
}

// ShortFlag adds -short (Config.Short) to fs with p as its variable, for
// every command that runs the package's tests or fuzz tests.
func ShortFlag(fs *flag.FlagSet, p *bool) {
	fs.BoolVar(p, "short", false, "tell long-running tests and fuzz tests to shorten their run time, as go test -short (testing.Short)")
}

// goflagsTestFlags are the flags fuzzbox shares with go test that go test
// also takes from GOFLAGS (cmd/go's testFlags): not -timeout (go test's
// bounds the whole test binary, fuzzbox's one input) nor -json (go test's is
// test2json's stream, fuzzbox's its event stream).
var goflagsTestFlags = []string{"fuzz", "fuzztime", "fuzzminimizetime", "parallel", "run", "skip", "short", "v"}

// goflagsRefused are the flags of go test's fuzzbox refuses on its command
// line that change a build or run when GOFLAGS holds them (not -x or -work,
// which only show what the go command does).
var goflagsRefused = []string{"cover", "covermode", "coverpkg", "coverprofile", "exec", "toolexec", "n", "compiler", "buildmode", "asan", "msan", "linkshared", "cpu", "shuffle"}

// SetFromGOFLAGS sets the flags of fs that go test would take from goflags
// (the go command's GOFLAGS: space-separated -flag=value or -flag) and that
// the command line did not set: call it after fs.Parse. It returns those
// of go test's flags in goflags that go to the test binary (-failfast,
// -fullpath, as -test.name), which go before the command line's test
// arguments (CommandLine.TestArgs), so that the command line's win. As in
// go test, other entries are left to the commands that know them (-tags
// and -mod are the build's, driver/build). The error names GOFLAGS.
func SetFromGOFLAGS(fs *flag.FlagSet, goflags string) (testArgs []string, err error) {
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	for _, entry := range strings.Fields(goflags) {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(entry, "-"), "-"), "=")
		if n := strings.TrimPrefix(name, "test."); goTestFlags[n].test && fs.Lookup(n) == nil {
			testArgs = append(testArgs, buildFlag("test."+n, value, hasValue))
			continue
		}
		if n := strings.TrimPrefix(name, "test."); n == "count" && value != goTestFlags[n].only {
			// go test would run each test that many times; fuzzbox runs
			// them once, as its command line says.
			return nil, fmt.Errorf("GOFLAGS holds go test's -%s=%s, which fuzzbox does not take (it runs the package's tests once); run fuzzbox without it in GOFLAGS", name, value)
		}
		if slices.Contains(goflagsRefused, strings.TrimPrefix(name, "test.")) {
			// Taken silently, the go commands fuzzbox runs would build
			// or run otherwise than it says (-cover: a build error;
			// -exec, -toolexec: left out; -n: nothing built).
			return nil, fmt.Errorf("GOFLAGS holds go test's -%s, which fuzzbox does not take (%s); run fuzzbox without it in GOFLAGS", name, goTestFlags[name].why)
		}
		name = strings.TrimPrefix(name, "test.")
		f := fs.Lookup(name)
		if f == nil || explicit[name] || !slices.Contains(goflagsTestFlags, name) {
			continue
		}
		if !hasValue {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				return nil, fmt.Errorf("GOFLAGS: flag needs an argument: -%s", name)
			}
			value = "true"
		}
		if err := fs.Set(name, value); err != nil {
			return nil, fmt.Errorf("GOFLAGS: -%s: %w", name, err)
		}
	}
	return testArgs, nil
}

// GOFLAGS returns the go command's GOFLAGS in dir ("" = the current
// directory): the environment's, or what go env -w set; "" when the go
// command cannot say.
func GOFLAGS(dir string) string {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	env, err := goEnvJSON(ctx, dir, "GOFLAGS")
	if err != nil {
		return build.UserGoEnv(os.Environ(), "GOFLAGS")
	}
	return env["GOFLAGS"]
}

// CacheDirFlag adds -cachedir, the generated corpus's directory
// (Config.CacheDir), to fs with p as its variable: one declaration for every
// command that reads or writes the generated corpus (fuzzbox fuzz, cover,
// corpus minimize and merge, the Bazel runner).
func CacheDirFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "cachedir", "", "directory of the generated corpus (default: the user cache dir, fuzzbox/fuzz/<import path>; given, with the fuzz tests of several packages and for fuzzbox ci: DIR/<import path>)")
}

// Checked returns the configuration the flags set, checked, with stderr
// for build errors and the fuzzing binary's standard error.
func (f *Flags) Checked(stderr io.Writer) (Config, error) {
	c := f.Config
	if c.Timeout < 0 {
		return c, errors.New("-timeout must be >= 0")
	}
	// 0 is go test's "no time limit" for the whole run, which a fuzzbox run
	// has none of; its per-input limit stays the default (Config's 0), as
	// go test -fuzz -timeout=0 still reports an input that hangs.
	c.Stderr = stderr
	return c, c.Check()
}

// Output says where and how a front end prints a run (Run).
type Output struct {
	Stdout io.Writer // the events (event.Printer) and, in text, the summary of several fuzz tests
	Stderr io.Writer // the run's error, on one line after Prefix and ": "
	Prefix string    // names the front end in the error line, such as "fuzzbox fuzz"
	JSON   bool      // print the events as JSON lines (event.Encode) and no summary
}

// Run does what a front end that fuzzes does with its command line
// (fuzzbox fuzz, corpus minimize and merge, the Bazel runner's run mode):
// it resolves patterns (Resolve), fuzzes the targets (Fuzz) until they are
// done or ctx is cancelled, and prints the run as fuzzbox fuzz does (out).
// A selection that matches nothing is an ExitError result with Resolve's
// error, printed before any event.
func Run(ctx context.Context, cfg Config, patterns []string, out Output) Result {
	targets, err := Resolve(ctx, cfg, patterns)
	if err != nil {
		return out.report(errorResult(err))
	}
	if cfg.PruneOnly {
		if targets = withGeneratedCorpus(cfg, targets, out.Stderr); len(targets) == 0 {
			return Result{ExitCode: ExitOK}
		}
	}
	return runTargets(ctx, cfg, targets, out)
}

// withGeneratedCorpus returns the targets whose generated corpus holds an
// entry, and says of each other that there is nothing to prune (a pruning
// run of it ran its seeds alone, and made the directory it found missing).
func withGeneratedCorpus(cfg Config, targets []Target, w io.Writer) []Target {
	var keep []Target
	for _, t := range targets {
		root, err := cfg.cacheDir(t)
		if err != nil {
			keep = append(keep, t) // the run reports it
			continue
		}
		dir := filepath.Join(root, t.Name)
		ents, _ := os.ReadDir(dir)
		if slices.ContainsFunc(ents, func(e os.DirEntry) bool { return !e.IsDir() && !strings.HasPrefix(e.Name(), ".") }) {
			keep = append(keep, t)
			continue
		}
		fmt.Fprintf(w, "%s: no generated corpus in %s: nothing to minimize\n", t, dir)
	}
	return keep
}

// runTargets is Run on resolved targets.
func runTargets(ctx context.Context, cfg Config, targets []Target, out Output) Result {
	res := Fuzz(ctx, cfg, targets, NewPrinter(out.Stdout, out.JSON, targets).Print)
	if line := res.goTestLine(targets); line != "" && !out.JSON && !cfg.PruneOnly {
		fmt.Fprintln(out.Stdout, line)
	}
	return out.report(res)
}

// goTestLine is the line go test -fuzz prints after the test binary of a
// run of one fuzz test (targets): "ok" or "FAIL", the package and the
// binary's running time (ok  \texample.com/p\t3.015s), or the package and
// "[build failed]" when it does not compile, which scripts and log readers
// look for. It is "" for several fuzz tests (the summary says how each
// ended), when the binary never ran or was stopped before fuzzing, and when
// fuzzbox's own error ended the run (ExitError): a FAIL there would blame
// the package.
func (res Result) goTestLine(targets []Target) string {
	switch {
	case len(targets) != 1:
		return ""
	case res.ExitCode == ExitError && errors.Is(res.Err, build.ErrSetupFailed):
		return "" // the go command printed go test's own ("[setup failed]")
	case res.ExitCode == ExitError && errors.Is(res.Err, build.ErrNotBuilt):
		return "FAIL\t" + targets[0].Package + " [build failed]"
	case len(res.Targets) != 1 || res.Targets[0].ranFor == 0 || res.Targets[0].stopped || res.ExitCode == ExitError:
		return "" // no "ok" for tests a stop cut short
	}
	status := "ok  "
	if res.ExitCode == ExitFailure {
		status = "FAIL"
	}
	r := res.Targets[0]
	return fmt.Sprintf("%s\t%s\t%.3fs", status, r.Package, r.ranFor.Seconds())
}

// NewPrinter returns the printer of a run of targets as fuzzbox fuzz prints
// it on w: JSON lines, or text whose status lines, with several targets,
// start with each one's label, and, with targets in several packages, name
// reproducers from the current directory, as the summary does.
func NewPrinter(w io.Writer, json bool, targets []Target) *event.Printer {
	return &event.Printer{W: w, JSON: json, Labels: labels(targets), Dirs: shownDirs(targets)}
}

// shownDirs maps each target to its directory as seen from the current one
// (shownDir) when the targets are in more than one directory; else nil: one
// package's reproducers are named from its directory, as go test names them.
func shownDirs(targets []Target) map[string]string {
	if len(targets) == 0 || !slices.ContainsFunc(targets, func(t Target) bool { return t.Dir != targets[0].Dir }) {
		return nil
	}
	cwd, _ := os.Getwd()
	m := map[string]string{}
	for _, t := range targets {
		m[t.String()] = shownDir(t.Dir, cwd)
	}
	return m
}

// labels gives each of several targets its status lines' label: its name, or
// package.FuzzX where two targets share the name; nil for one target, whose
// lines are go test's.
func labels(targets []Target) map[string]string {
	if len(targets) < 2 {
		return nil
	}
	count := map[string]int{}
	for _, t := range targets {
		count[t.Name]++
	}
	m := map[string]string{}
	for _, t := range targets {
		m[t.String()] = t.Name
		if count[t.Name] > 1 {
			m[t.String()] = t.String()
		}
	}
	return m
}

// report prints res's error line and, for several fuzz tests in text, the
// summary, and returns res.
func (out Output) report(res Result) Result {
	if res.Err != nil {
		// A go command's message keeps its lines (what to run next).
		fmt.Fprintf(out.Stderr, "%s: %s\n", out.Prefix, strings.ReplaceAll(res.Err.Error(), "\n", "\n\t"))
	}
	if !out.JSON && len(res.Targets) > 1 {
		cwd, _ := os.Getwd()
		res.writeSummary(out.Stdout, cwd)
	}
	return res
}

// WriteSummary writes the per-target results of a run of several fuzz
// tests, as fuzzbox fuzz prints them at the end, with reproducers' paths
// relative to their package's directory.
func (r Result) WriteSummary(w io.Writer) { r.writeSummary(w, "") }

// writeSummary is WriteSummary with reproducers' paths relative to base, or
// absolute where base is not above them; base "" keeps them relative to
// their package's directory.
func (r Result) writeSummary(w io.Writer, base string) {
	fmt.Fprintf(w, "\nfuzzbox: %d fuzz tests:\n", len(r.Targets))
	width := 50
	for _, t := range r.Targets {
		width = max(width, len(t.Target.String()))
	}
	for _, t := range r.Targets {
		status, detail := t.status(base)
		fmt.Fprintf(w, "  %s  %-*s %s\n", status, width, t.Target, detail)
	}
}

// shownPath is the path of the target's reproducer repro (relative to the
// package directory, as in its event) for a reader in base: the summary's
// directory, or the repository's root in fuzzbox ci's reports.
func (r TargetResult) shownPath(repro, base string) string {
	if base == "" || r.Target.Dir == "" || filepath.IsAbs(repro) {
		return repro
	}
	return filepath.Join(shownDir(r.Target.Dir, base), repro)
}

// shownInput is where failure f's input is, as a reader in base names it:
// its reproducer (shownPath), or the seed corpus entry it is.
func (r TargetResult) shownInput(f event.Event, base string) string {
	if f.Seed != "" {
		return event.SeedEntry(r.Name, f.Seed)
	}
	return r.shownPath(f.Reproducer, base)
}

// shownDir is dir as a reader in base names it: relative to base when it is
// under it, else absolute.
func shownDir(dir, base string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if rel, ok := within(abs, base); ok {
		return rel
	}
	return abs
}

// notFuzzed says that the target's time ended before fuzzing started, or
// returns "".
func (r TargetResult) notFuzzed() string {
	if r.Unfuzzed == "" {
		return ""
	}
	return "not fuzzed: its time ended while it ran its seed and generated corpus (" + r.Unfuzzed + " inputs)"
}

// status is a target's line in the summary (writeSummary's base).
func (r TargetResult) status(base string) (status, detail string) {
	status, detail = "ok  ", fmt.Sprintf("%d execs", r.Execs)
	if r.Plateau {
		detail += ", stopped on -plateau"
	}
	if n := r.notFuzzed(); n != "" {
		detail += ", " + n
	}
	if len(r.leaveOut) > 0 {
		detail += fmt.Sprintf(", without %s (slower than -timeout only in fuzzbox's binary)", strings.Join(r.leaveOut, ", "))
	}
	switch {
	case len(r.Failures) > 0:
		var parts []string
		for _, f := range r.Failures {
			part := f.Kind + " -> " + r.shownInput(f, base)
			if f.Bucket != "" {
				part += fmt.Sprintf(" (%s bucket %s, %d×)", event.BucketWord(f.Known), f.Bucket, 1+r.Duplicates[f.Bucket])
			}
			parts = append(parts, part)
		}
		status, detail = "FAIL", strings.Join(parts, ", ")
	case r.Err != "":
		status, detail = "ERR ", r.Err
	case r.StartFailed != "":
		status, detail = "FAIL", "its code before f.Fuzz failed in a worker process (see output)"
	case r.ExitCode != ExitOK:
		status, detail = "FAIL", "tests failed (see output)"
	case r.stopped:
		status, detail = "--  ", "not fuzzed: the run was stopped before its fuzzing started"
	case !r.turned:
		status, detail = "--  ", "not fuzzed: the run ended before its turn"
	}
	if len(r.Flaky) > 0 {
		detail += fmt.Sprintf(" (%d flaky, not written)", len(r.Flaky))
	}
	return status, detail
}
