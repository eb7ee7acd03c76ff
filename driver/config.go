package driver

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/driver/build"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// Config configures every operation of the driver: Resolve, Fuzz, Cover and
// Replay. Each field means one thing wherever it is read; the zero value of
// each is valid unless its comment says otherwise. Most fields are fuzzbox
// fuzz's flags (Flags registers them).
type Config struct {
	// Selection and build, read by Resolve (and by the builds of Fuzz,
	// Cover and Replay).
	Fuzz string // regexp of the fuzz tests to select; required by Resolve
	Tags string // build tags, comma-separated
	Race bool   // build with the race detector
	// Vet is go test's -vet, for every build of the package's tests (the
	// fuzzing binary, stock go test's for replays and coverage): "" runs
	// the vet checks go test runs by default, and a package they fail does
	// not build, as under go test; "off" runs none; else the
	// comma-separated checks to run.
	Vet string
	// Dir is the directory relative patterns are resolved in and the go
	// command runs in; "" means the current directory.
	Dir string
	// Binary is a fuzzing binary built elsewhere (a test binary linked with
	// fuzzbox's test main, e.g. by the Bazel rules): nothing is built, and
	// the one pattern given to Resolve is the package's directory.
	Binary string
	// StockBinary, with Binary, is the package's test binary built without
	// fuzzbox (stock testing deps, no instrumentation: go test -c's, or
	// the build system's own test of the same sources, as the Bazel rules'
	// replay target). The driver replays failures with it, where it would
	// build one with go test -c, so that a failure only fuzzbox's binary has
	// (a slow input, an engine fault) is not reported as the code's; ""
	// with Binary: failures are reported as fuzzbox's binary saw them.
	StockBinary string
	// StockEnv is StockBinary's environment; nil is this process's. For a
	// front end whose own environment changes what a stock test binary
	// runs (the Bazel runner: the test runner's variables).
	StockEnv []string
	// ImportPath names Binary's package in events and the default cache
	// directory; "" asks the go command in the package directory, and falls
	// back to the directory's path.
	ImportPath string
	// CacheDir is the generated corpus (fuzz test FuzzX's entries are in
	// CacheDir/FuzzX); "" means DefaultCacheDir of the package. A run of
	// the fuzz tests of several packages, and CI's always, keeps each
	// package's in CacheDir/<import path>: two packages' FuzzX are two fuzz
	// tests.
	CacheDir string
	// cachePerPackage says that CacheDir holds one directory per package.
	cachePerPackage bool

	// Fuzzing, read by Fuzz.
	FuzzTime     string        // duration, or Nx executions over all workers; "" runs until the context is cancelled
	MinimizeTime string        // duration or Nx to minimize a failing input; "" means ipc.DefaultMinimizeTime (60s), "0x" turns minimization off
	Parallel     int           // worker processes; 0 means GOMAXPROCS
	Run          string        // -test.run for the tests run before fuzzing; "" means all (with several fuzz tests, once per package, in its first one's turn)
	Skip         string        // -test.skip, as go test -skip: tests (and fuzz tests) not to run; "" means none
	Verbose      bool          // -test.v
	Timeout      time.Duration // per-input hang limit: an input running longer is a failure of kind hang; 0 means ipc.DefaultTimeout (10s)
	Short        bool          // -test.short, as go test -short: testing.Short() reports true in the tests and the fuzz function
	KeepGoing    bool          // go on after a failure, one reproducer per unique failure
	KeepFlaky    bool          // write a reproducer for a failure that did not fail again in a fresh worker
	Dict         string        // dictionary file in the AFL/libFuzzer format; "" means none
	// RSSLimitMB is the per-worker resident memory limit in MiB
	// (-rss_limit_mb): exceeding it is a failure of kind oom. 0 means no
	// limit, as at every step down to the worker (the fuzzing binary's
	// flag, engine.Options); front ends set DefaultRSSLimitMB unless told
	// otherwise.
	RSSLimitMB int

	// TestArgs are the arguments of go test's -args: every run of the test
	// binary (listing its fuzz tests, the tests before fuzzing, the
	// coordinator and its workers, the replays under stock go test) gets
	// them after its own flags, unchanged: a TestMain's own flags, or
	// positional arguments.
	TestArgs []string

	// Plateau stops a target's fuzzing when no input has added coverage
	// for this long (0: never). With several targets and a -fuzztime
	// budget, the time or executions a target leaves unused go to the ones
	// after it; in an open-ended run a target that stopped this way gets no
	// more turns, and the run ends when every target has.
	Plateau time.Duration
	// Sync is a directory shared with other fuzzbox instances (another
	// machine's through NFS or a bucket mount, a CI cache folder): each
	// writes the inputs that add coverage for it to Sync/<FuzzX> and reads
	// the others' (docs/engine.md, "Corpus sync"). "" means none.
	Sync string

	// NoLeaks turns goroutine-leak detection off (the -leaks=false flag);
	// false means an input that leaves goroutines it started blocked fails
	// with kind leak (docs/engine.md, Failures).
	NoLeaks bool
	// NoGoCache leaves go test -fuzz's generated corpus out (the
	// -gocache=false flag); by default a fuzz test starts from its entries
	// too, each copied into fuzzbox's generated corpus once (gocorpus.go).
	NoGoCache bool

	// RaceTwin builds the fuzz test a second time with -race and runs one
	// background worker of that binary that replays each new corpus entry
	// and each failure's input: a data race is a failure of kind race
	// (docs/engine.md, "Races"). false means no twin; it is ignored with
	// Race (the whole run is race-built), Binary (nothing is built) and
	// PruneOnly (nothing is fuzzed).
	RaceTwin bool

	Schedule     string // corpus schedule: "" or ipc.ScheduleRoundRobin (the default), or ipc.SchedulePower
	NoCmp        bool   // no comparison guidance (benchmark ablation)
	NoSourceDict bool   // no dictionary of the package's literals (benchmark ablation)

	// PruneOnly runs each target's corpus without fuzzing and deletes the
	// generated entries that add no coverage (fuzzbox corpus minimize).
	PruneOnly bool

	// ReplayLimit bounds one run of a stock test binary over a fuzz test's
	// corpus (Replay, Cover; not the fuzzing itself, which Timeout bounds
	// per input): a run still going then fails, as go test -timeout does;
	// 0 means DefaultReplayLimit.
	ReplayLimit time.Duration

	// Fuzzbox is the fuzzbox executable the build runs as its -toolexec
	// ("fuzzbox toolexec"); "" means this executable, which must then
	// dispatch that subcommand (the fuzzbox command does).
	Fuzzbox string
	// Stderr receives the go command's build errors and the fuzzing
	// binary's standard error; nil means os.Stderr.
	Stderr io.Writer
}

// DefaultRSSLimitMB is the Config.RSSLimitMB front ends set unless told
// otherwise (Flags' -rss_limit_mb default, the LSP sidecar's runs): the
// fuzzing binary's own default, ipc.DefaultRSSLimitMB.
const DefaultRSSLimitMB = ipc.DefaultRSSLimitMB

// DefaultRaceTwin is -racetwin's default in the front ends that build
// (Flags.RegisterBuild); a zero Config has no twin. Chosen from its
// measured cost: docs/engine.md, "Races".
const DefaultRaceTwin = false

// DefaultReplayLimit is what a zero Config.ReplayLimit means: the limit of one
// stock go test run over a corpus.
const DefaultReplayLimit = 10 * time.Minute

// timeout returns the per-input hang limit, Timeout or its default.
func (c *Config) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return ipc.DefaultTimeout
}

// replayLimit returns the limit of one go test run over a corpus,
// ReplayLimit or its default.
func (c *Config) replayLimit() time.Duration {
	if c.ReplayLimit > 0 {
		return c.ReplayLimit
	}
	return DefaultReplayLimit
}

var nxRE = regexp.MustCompile(`^[0-9]+x$`)

// Check validates the configuration, returning a one-line reason: the
// selection (checkSelection) and the rest (checkRun).
func (c *Config) Check() error {
	if err := c.checkSelection(); err != nil {
		return err
	}
	return c.checkRun()
}

// checkSelection validates what Resolve reads: -fuzz and -bin.
func (c *Config) checkSelection() error {
	if c.Fuzz == "" {
		return errors.New("-fuzz is required")
	}
	if _, err := regexp.Compile(c.Fuzz); err != nil {
		return fmt.Errorf("-fuzz: %v", err)
	}
	if c.Binary != "" {
		if fi, err := os.Stat(c.Binary); err != nil || fi.IsDir() {
			return fmt.Errorf("-bin: %s is not a file", c.Binary)
		}
	}
	if c.StockBinary != "" {
		if c.Binary == "" {
			return errors.New("-stockbin is for a prebuilt fuzzing binary (-bin): without it, fuzzbox builds the stock test binary itself")
		}
		if fi, err := os.Stat(c.StockBinary); err != nil || fi.IsDir() {
			return fmt.Errorf("-stockbin: %s is not a file", c.StockBinary)
		}
	}
	return nil
}

// checkRun validates the limits and options of the operations; Fuzz,
// which takes its targets resolved, checks only these.
func (c *Config) checkRun() error {
	for name, v := range map[string]string{"-fuzztime": c.FuzzTime, "-fuzzminimizetime": c.MinimizeTime} {
		if v == "" || nxRE.MatchString(v) {
			continue
		}
		if d, err := time.ParseDuration(v); err != nil || d < 0 {
			return fmt.Errorf("%s: %q is neither a duration nor Nx", name, v)
		}
	}
	if _, err := regexp.Compile(c.Skip); err != nil {
		return fmt.Errorf("-skip: %v", err)
	}
	if _, err := regexp.Compile(c.Run); err != nil {
		// Before the tests run: their binary's refusal read as the
		// package's tests failing.
		return fmt.Errorf("-run: %v", err)
	}
	if c.Sync != "" {
		abs, err := filepath.Abs(c.Sync) // the fuzzing binary runs in the package directory
		if err != nil {
			return fmt.Errorf("-sync: %w", err)
		}
		c.Sync = abs
	}
	switch {
	case c.Parallel < 0:
		return errors.New("-parallel must be >= 0")
	case c.Timeout < 0:
		return errors.New("-timeout must be >= 0")
	case c.Plateau < 0:
		return errors.New("-plateau must be >= 0")
	case c.RSSLimitMB < 0:
		return errors.New("-rss_limit_mb must be >= 0")
	case c.ReplayLimit < 0:
		return errors.New("the replay limit must be > 0")
	case c.Schedule != "" && c.Schedule != ipc.ScheduleRoundRobin && c.Schedule != ipc.SchedulePower:
		return fmt.Errorf("-schedule: %q is neither %s nor %s", c.Schedule, ipc.ScheduleRoundRobin, ipc.SchedulePower)
	}
	return nil
}

func (c *Config) stderr() io.Writer {
	if c.Stderr == nil {
		return os.Stderr
	}
	return c.Stderr
}

// DefaultCacheDir is the generated corpus directory of a package when
// Config.CacheDir is empty: <user cache dir>/fuzzbox/fuzz/<import path>.
// The fuzz test's entries are in its subdirectory FuzzX.
func DefaultCacheDir(importPath string) (string, error) {
	return filepath.Join(build.UserCacheDir(), "fuzzbox", "fuzz", filepath.FromSlash(importPath)), nil
}

// cacheDir returns the absolute generated-corpus directory for t.
func (c *Config) cacheDir(t Target) (string, error) {
	dir := c.CacheDir
	switch {
	case dir == "":
		var err error
		if dir, err = DefaultCacheDir(t.Package); err != nil {
			return "", err
		}
	case c.cachePerPackage:
		dir = filepath.Join(dir, filepath.FromSlash(t.Package))
	}
	return filepath.Abs(dir)
}

// panicOnExit0 is the flag go test runs every test binary with: a test that
// calls os.Exit(0) fails instead of ending the run as if all passed. The
// fuzzing binary, the replay and the re-run before fuzzing all get it.
const panicOnExit0 = "-test.paniconexit0"

// userArgs returns what every run of the test binary gets after fuzzbox's
// flags: -test.short and -test.v when asked for (code may take other paths
// under testing.Short or testing.Verbose: a failure on one must replay
// with them), then TestArgs. A positional argument among TestArgs ends the
// flags the binary parses, so nothing may follow it.
func (c *Config) userArgs() []string {
	var args []string
	if c.Short {
		args = append(args, "-test.short")
	}
	if c.Verbose {
		args = append(args, "-test.v")
	}
	return append(args, c.TestArgs...)
}

// shownTestFlags returns the go test flags of a check with stock go test
// (goTest) that change what runs, each followed by a space, for messages
// that show the command.
func (c *Config) shownTestFlags() string {
	var b strings.Builder
	for _, f := range []struct {
		on   bool
		flag string
	}{{c.Race, "-race"}, {c.Short, "-short"}, {c.Verbose, "-v"}, {c.Tags != "", "-tags=" + c.Tags}} {
		if f.on {
			b.WriteString(f.flag + " ")
		}
	}
	return b.String()
}

// replayArgs returns the flags of a run of the tests matching run (a stock
// test binary's replay, or the fuzzing binary's without fuzzing): once, with
// go test's -test.paniconexit0, bounded by the replay limit.
func (c *Config) replayArgs(run string) []string {
	return []string{panicOnExit0, "-test.count=1", "-test.run=" + run, "-test.timeout=" + c.replayLimit().String()}
}

// goTestTimeout is go test's default -timeout, which go test -fuzz passes
// its binary too: it bounds the tests and seeds run before fuzzing (their
// t.Deadline()), and the testing package stops the alarm before fuzzing
// starts. fuzzbox's -timeout is a per-input limit; a test binary argument
// after -args (-test.timeout=30m) overrides this.
const goTestTimeout = "10m0s"

// childArgs returns the fuzzing binary's arguments for one turn of r with
// the given -test.fuzztime value ("" for none).
func (c *Config) childArgs(r *TargetResult, fuzztime string) ([]string, error) {
	t := r.Target
	cache, err := c.cacheDir(t)
	if err != nil {
		return nil, err
	}
	args := []string{
		"-test.fuzz=^" + regexp.QuoteMeta(t.Name) + "$", "-test.fuzzcachedir=" + cache, "-test.timeout=" + goTestTimeout,
		panicOnExit0,
		"-test.fuzzminimizetime=" + orDefault(c.MinimizeTime, ipc.DefaultMinimizeTime),
		flagArg(ipc.FlagTimeout, c.timeout().String()), flagArg(ipc.FlagRSSLimitMB, strconv.Itoa(c.RSSLimitMB)),
		flagArg(ipc.FlagEventsFD, strconv.Itoa(ipc.EventsFD)),
	}
	if fuzztime != "" {
		args = append(args, "-test.fuzztime="+fuzztime)
	}
	if c.Parallel > 0 {
		args = append(args, "-test.parallel="+strconv.Itoa(c.Parallel))
	}
	return append(args, c.optionalArgs(r.dict, r.twin)...), nil
}

// optionalArgs returns the flags that are set only when asked for.
func (c *Config) optionalArgs(dict, twin string) []string {
	var args []string
	switch {
	case c.PruneOnly:
		args = append(args, "-test.run=^$", flagArg(ipc.FlagPruneOnly, "true"))
	case c.Run != "":
		args = append(args, "-test.run="+c.Run)
	}
	for _, b := range []struct {
		on   bool
		flag string
	}{{c.KeepGoing, ipc.FlagKeepGoing}, {c.KeepFlaky, ipc.FlagKeepFlaky}, {c.NoCmp, ipc.FlagNoCmp}, {c.NoLeaks, ipc.FlagNoLeaks}} {
		if b.on {
			args = append(args, flagArg(b.flag, "true"))
		}
	}
	if c.Schedule != "" {
		args = append(args, flagArg(ipc.FlagSchedule, c.Schedule))
	}
	if c.Plateau > 0 {
		args = append(args, flagArg(ipc.FlagPlateau, c.Plateau.String()))
	}
	if c.Sync != "" {
		args = append(args, flagArg(ipc.FlagSync, c.Sync)) // absolute: checkRun
	}
	if dict != "" {
		args = append(args, flagArg(ipc.FlagDict, dict))
	}
	if twin != "" {
		args = append(args, flagArg(ipc.FlagRaceTwin, twin))
	}
	return args
}

func flagArg(name, value string) string { return "-" + name + "=" + value }

func orDefault(v, def string) string {
	if strings.TrimSpace(v) == "" {
		return def
	}
	return v
}

// stockBuildFlags returns the go command's flags for c.Tags and c.Vet, and
// build.NoGoFuzz, for the stock go test -c builds (replays, coverage); the
// fuzzing binary's build gets them as build.Options.
func (c *Config) stockBuildFlags() []string {
	flags := []string{build.NoGoFuzz}
	if c.Tags != "" {
		flags = append(flags, "-tags="+c.Tags)
	}
	if c.Vet != "" {
		flags = append(flags, "-vet="+c.Vet)
	}
	return flags
}
