package driver

import (
	"cmp"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// The engine confirms a failure by re-running it in fresh workers, which
// run fuzzbox's binary. A failure only that binary has (fuzzbox's bug, or a
// failure that depends on something only the fuzzing process does) would
// pass that check. So, before a failure is reported, the driver replays its
// reproducer with stock go test, as the user will; one go test passes is
// moved out of testdata/ and reported as fuzzbox's internal error.

// goTestKinds are the failure kinds stock go test reports as failures of
// the same input: an oom is a memory limit only fuzzbox sets, so it is not
// replayed. A hang is: go test reproduces it when it does not finish the
// input within fuzzbox's -timeout (the instrumented binary runs some code
// several times slower: image/gif's own seeds, 256 re-encodings each, took
// over 10 s in it on a loaded machine and 4 s under go test).
var goTestKinds = map[string]bool{event.KindPanic: true, event.KindFail: true, event.KindFatal: true, event.KindExit: true, event.KindRace: true, event.KindHang: true}

// goTestReplays is how many times go test runs a reproducer before the
// driver concludes go test does not fail on it; flakyReplays, how many in
// all when fuzzbox's re-run in a fresh worker failed again: a failure of
// the code that fails one run in three passed two go test runs almost half
// the time, and was called fuzzbox's bug.
const (
	goTestReplays = 2
	flakyReplays  = 10
)

// unreproducedDir is where, under the cache directory, reproducers go test
// does not fail on are kept.
const unreproducedDir = "unreproduced"

// checker replays one target's failures with stock go test.
type checker struct {
	ctx   context.Context
	cfg   Config
	r     *TargetResult
	s     *stream
	seeds map[string]bool // the files in testdata/fuzz/FuzzX when the turn started: the user's
	made  []string        // testdata, testdata/fuzz, testdata/fuzz/FuzzX if they did not exist then, deepest first
	// refuted and confirmed count this turn's failures by outcome.
	refuted, confirmed int
	// slowBefore names the inputs of the baseline (before the engine's
	// start event) that were only slow (a hang go test does not have);
	// otherBefore says another refuted failure came before that event.
	slowBefore  []string
	otherBefore bool
	// sources holds the SHA-256 of each Go file of the package when the
	// turn started, after its binary was built: a file changed since is an
	// edit go test replays and the binary does not have (editedSince).
	sources map[string][sha256.Size]byte
	start   time.Time // then: a file of the module modified since is an edit too (editedInModule)
}

// newChecker snapshots the target's seed directory. A prebuilt binary's
// package may not be one the go command can build: without a stock binary
// of its own (Config.StockBinary), its failures are not checked (nil).
func newChecker(ctx context.Context, cfg Config, r *TargetResult, s *stream) *checker {
	if !cfg.canReplay() {
		return nil
	}
	c := &checker{ctx: ctx, cfg: cfg, r: r, s: s, seeds: map[string]bool{}, sources: goSources(r.Dir), start: time.Now()}
	for _, d := range []string{filepath.Join("testdata", "fuzz", r.Name), filepath.Join("testdata", "fuzz"), "testdata"} {
		if _, err := os.Stat(filepath.Join(r.Dir, d)); err != nil {
			c.made = append(c.made, filepath.Join(r.Dir, d))
		}
	}
	entries, _ := os.ReadDir(filepath.Join(r.Dir, "testdata", "fuzz", r.Name))
	for _, e := range entries {
		c.seeds[e.Name()] = true
	}
	return c
}

// check replays failure e's reproducer with go test. It returns false when
// go test passes it: then it has reported that instead, and e must not be.
func (c *checker) check(e event.Event) bool {
	if c == nil || e.Type != event.Failure || e.Duplicate {
		return true
	}
	name := e.ReplayName()
	if name == "" || !goTestKinds[e.Kind] || e.ExitZero || (e.Reruns > 0 && e.Reproduced == 0) {
		// Not replayable, or flaky and kept as such by -keepflaky: reported
		// as fuzzbox saw it.
		c.confirmed++
		return true
	}
	path := e.Reproducer // "" for a seed of f.Add's
	if path != "" && !filepath.IsAbs(path) {
		path = filepath.Join(c.r.Dir, path)
	}
	rc := c.cfg
	rc.Race = rc.Race || e.Kind == event.KindRace
	rc.ReplayLimit = c.limit()
	if e.Kind == event.KindHang {
		rc.ReplayLimit = c.cfg.timeout() // a hang is an input that runs longer than this
	}
	killed := 0 // runs a signal from outside ended: no verdict
	replay := func() (ReplayResult, error) {
		res, err := replayAt(c.ctx, rc, c.r.Target, name, path)
		if err == nil && res.Killed && sameSignal(res.Output, e.Message) {
			// The input's own signal (it sent itself SIGTERM), which
			// killed fuzzbox's worker too: go test reproduces it.
			res.Killed, res.Kind = false, e.Kind
		}
		if err == nil && res.Killed {
			killed++
			res.Passed = true // as far as the loops go: not the input's failure
		}
		return res, err
	}
	res, err := replay()
	runs := 1
	for ; runs < goTestReplays && err == nil && res.Passed && c.ctx.Err() == nil; runs++ {
		res, err = replay() // a failure that depends on timing may need another try
	}
	flaky := false
	if e.Reproduced > 0 && e.Kind != event.KindHang && e.Kind != event.KindRace {
		// Failed again in a fresh worker: a flaky failure of the code
		// fails under go test some of the time too. (A hang's replay
		// takes the timeout; a race's is reported as flaky anyway.)
		for ; runs < flakyReplays && err == nil && res.Passed && c.ctx.Err() == nil; runs++ {
			res, err = replay()
			flaky = true
		}
	}
	if err == nil && res.Passed && killed == runs {
		err = fmt.Errorf("each of its %d runs was killed by a signal from outside", runs)
	}
	ran := fmt.Sprintf("%d runs", runs)
	if killed > 0 {
		ran += fmt.Sprintf(", %d of them killed by a signal from outside: no verdict", killed)
	}
	switch {
	case c.ctx.Err() != nil:
		return true
	case err != nil:
		c.confirmed++
		c.say(fmt.Sprintf("fuzzbox: could not replay %s with %s to check it (%s); reporting it as fuzzbox's binary saw it\n", name, c.replayer(), firstLineOf(err.Error())))
		return true
	case !res.Passed && res.Kind == event.KindFail && res.Entry == "" && strings.Contains(res.Output, "--- FAIL: "+c.r.Name+" ("):
		// The fuzz test failed as a whole, not on the input: a malformed
		// file in testdata (what a go test -fuzz killed while writing
		// leaves), its code before f.Fuzz. (An input that exits the
		// process leaves no FAIL line at all.)
		c.confirmed++
		c.say(fmt.Sprintf("fuzzbox: could not check %s with %s: %s fails %s before it runs the input (%s); reporting it as fuzzbox's binary saw it\n",
			name, c.replayer(), c.replayOf(name, false), c.r.Name, firstLineOf(res.Message)))
		return true
	case !res.Passed:
		c.confirmed++
		if flaky {
			c.say(fmt.Sprintf("fuzzbox: %s failed it in run %d only, after %d passes: a flaky failure of your code (fuzzbox's re-runs in fresh workers failed %d of %d)\n",
				c.replayOf(name, false), runs, runs-1-killed, e.Reproduced, e.Reruns))
		}
		if cmd := c.cfg.replayCommand(c.r.Target, name); cmd != "" {
			c.say("fuzzbox: go test replays it with this run's flags: " + cmd + "\n")
		}
		return true
	case e.AfterReturn:
		// go test ends the process once the fuzz function returns; the
		// goroutine that fails after that may not have run by then.
		c.confirmed++
		c.say(fmt.Sprintf("fuzzbox: %s passes %s (%d runs): its %s comes after the fuzz function returned, on a goroutine the input started, and the test process can end first; fuzzbox's re-runs, which wait for the input's goroutines, failed %d of %d. Reported as your code's failure\n",
			c.replayOf(name, false), name, runs, e.Kind, e.Reproduced, e.Reruns))
		return true
	}
	if f := c.editedSince(); f != "" {
		c.confirmed++
		c.say(fmt.Sprintf("fuzzbox: %s passes %s, but %s changed after this run's fuzzing binary was built: go test ran the edited code, which may have fixed the failure; reported as the built code's failure, as go test -fuzz reports it\n",
			c.replayOf(name, false), name, f))
		return true
	}
	c.refuted++
	if c.r.startedAt == 0 {
		if e.Kind == event.KindHang {
			// The engine knows a generated entry by its file's name, not
			// by its minimized reproducer's.
			c.slowBefore = append(c.slowBefore, cmp.Or(e.Entry, name))
		} else {
			c.otherBefore = true
		}
	}
	kept := c.setAside(path, name)
	c.forgetBucket(e)
	switch e.Kind {
	case event.KindRace:
		c.unraced(e, name, kept)
		return false
	case event.KindHang:
		c.slow(e, name, kept)
		return false
	}
	c.s.emit(event.Event{Type: event.InternalError, Target: c.r.Name, Package: c.r.Package, Message: fmt.Sprintf(
		"fuzzbox's binary failed input %s (a %s failure: %s; %d of %d re-runs in fresh workers failed too), but %s passes it (%s): not reported as a failure of your code; %s%s. "+
			"A failure only fuzzbox's binary has is a fuzzbox bug (or depends on the fuzzing process): please report it with the input and the output below.\n%s",
		name, e.Kind, e.Headline(), e.Reproduced, e.Reruns, c.replayOf(name, false), ran, kept, c.after(), e.Message)})
	c.r.Internal = append(c.r.Internal, event.Event{Type: event.InternalError, Target: c.r.Name})
	return false
}

// editedSince returns a Go file of the package (its directory) changed,
// added or removed since the turn started, or "": a user who fixes a bug
// while fuzzing goes on had the bug the old binary found called fuzzbox's
// (go test replays the fixed code), its reproducer moved out of testdata.
// Contents are compared, not times: a test that rewrites or touches its
// package's files unchanged edits nothing. A prebuilt stock binary
// (-stockbin) has no edit the fuzzing binary lacks: none then.
func (c *checker) editedSince() string {
	if c.cfg.StockBinary != "" {
		return ""
	}
	now := goSources(c.r.Dir)
	for _, f := range slices.Sorted(maps.Keys(now)) {
		if sum, ok := c.sources[f]; !ok || sum != now[f] {
			return f
		}
	}
	for f := range c.sources {
		if _, ok := now[f]; !ok {
			return f
		}
	}
	return editedInModule(c.r.Dir, c.start)
}

// maxModuleFiles bounds editedInModule's walk.
const maxModuleFiles = 100_000

// editedInModule returns a Go file, go.mod or go.sum of the module of the
// package in dir, outside dir, modified after start, by its path from the
// module's root, or "": a bug fixed in a package the fuzz test imports was
// called fuzzbox's. Times are compared, not contents, which are not kept
// for every file of a module: a file touched unchanged counts too. Other
// modules (nested ones, those of go.work and replace directives) are not
// looked at.
func editedInModule(dir string, start time.Time) string {
	root := ModuleRoot(dir)
	var edited string
	n := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		n++
		switch {
		case err != nil:
			return nil
		case n > maxModuleFiles:
			return filepath.SkipAll
		case d.IsDir():
			if path == dir || path != root && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // another module
			}
			return nil
		case !strings.HasSuffix(d.Name(), ".go") && d.Name() != "go.mod" && d.Name() != "go.sum":
			return nil
		}
		if fi, err := d.Info(); err == nil && fi.ModTime().After(start) {
			edited, _ = filepath.Rel(root, path)
			return filepath.SkipAll
		}
		return nil
	})
	return edited
}

// goSources returns the SHA-256 of each Go file in dir, by name.
func goSources(dir string) map[string][sha256.Size]byte {
	sums := map[string][sha256.Size]byte{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil {
			sums[filepath.Base(f)] = sha256.Sum256(data)
		}
	}
	return sums
}

// goTestFails reports whether one stock go test run of failure e's input
// fails.
func (c *checker) goTestFails(e event.Event, name string) bool {
	path := e.Reproducer
	if path != "" && !filepath.IsAbs(path) {
		path = filepath.Join(c.r.Dir, path)
	}
	rc := c.cfg
	rc.ReplayLimit = c.limit()
	res, err := replayAt(c.ctx, rc, c.r.Target, name, path)
	return err == nil && !res.Passed
}

// followUp tells, after failure e of a kind stock go test does not check
// (an oom, a leak) was reported, that the reproducer's "To re-run" go test
// command may pass, and which command replays it with fuzzbox's checks: a
// user who runs the first and sees ok must not conclude the failure was
// fuzzbox's.
func (c *checker) followUp(e event.Event) {
	name := e.ReplayName()
	if c == nil || e.Type != event.Failure || e.Duplicate || name == "" || (e.Reruns > 0 && e.Reproduced == 0) {
		return
	}
	var why string
	switch e.Kind {
	case event.KindOOM:
		why = "go test sets no memory limit, so " + c.cfg.goTestCommand(c.r.Target, name) + " may pass this input (it runs it to its end, failing only if the machine runs out of memory)"
	case event.KindLeak:
		if c.goTestFails(e, name) {
			// The package checks for leaks itself (goleak.VerifyTestMain).
			c.say("fuzzbox: " + c.cfg.goTestCommand(c.r.Target, name) + " fails on it too: the package checks for goroutine leaks itself\n")
			return
		}
		why = "go test does not check for goroutine leaks, so " + c.cfg.goTestCommand(c.r.Target, name) + " passes this input"
	case event.KindExit:
		if !e.ExitZero {
			return
		}
		c.say(fmt.Sprintf("fuzzbox: the input ended the process with exit status 0 before the fuzz function returned (syscall.Exit, or exit in C code: -test.paniconexit0 catches os.Exit only), which go test -fuzz reports as a failure too (\"fuzzing process hung or terminated unexpectedly\"), but %s passes it: the test binary's exit status is all it sees; %s replays it\n",
			c.cfg.goTestCommand(c.r.Target, name), c.cfg.fuzzboxReplayCommand(c.r.Target)))
		return
	default:
		return
	}
	c.say(fmt.Sprintf("fuzzbox: %s; %s replays it with fuzzbox's %s check, as a failure of that seed\n", why, c.cfg.fuzzboxReplayCommand(c.r.Target), e.Kind))
}

// unraced reports a race that go test -race did not see again as a
// warning: whether a race happens depends on the scheduler (and, found by
// the race twin, on the worker process), so it is a flaky finding, not
// fuzzbox's bug; nor is it reported as the code's.
func (c *checker) unraced(e event.Event, name, kept string) {
	c.s.emit(event.Event{Type: event.Warning, Target: c.r.Name, Package: c.r.Package, Message: fmt.Sprintf(
		"a data race fuzzbox's race-built worker saw on input %s (%d of %d re-runs in fresh workers raced too) did not happen under %s (%d runs): a race that depends on the worker process or the scheduler is not reported as a failure; %s%s\n%s",
		name, e.Reproduced, e.Reruns, c.replayOf(name, true), goTestReplays, kept, c.after(), e.Message)})
}

// slow reports a hang go test did not see as a warning: the input ran
// longer than -timeout in fuzzbox's instrumented binary, but go test runs
// it within that time. A slow input is not the code's failure, nor a bug in
// fuzzbox: the instrumentation (counters, comparison tracing) costs time.
func (c *checker) slow(e event.Event, name, kept string) {
	c.s.emit(event.Event{Type: event.Warning, Target: c.r.Name, Package: c.r.Package, Message: fmt.Sprintf(
		"input %s ran longer than -timeout=%v in fuzzbox's instrumented fuzzing binary (%d of %d re-runs in fresh workers too), but %s runs it within %v (%d runs): a slow input, not a hang, so it is not reported as a failure; %s%s. "+
			"The instrumentation makes some code several times slower: a larger -timeout fuzzes past such inputs.",
		name, c.cfg.timeout(), e.Reproduced, e.Reruns, c.replayOf(name, false), c.cfg.timeout(), goTestReplays, kept, c.after())})
}

// maxLeftOut bounds the inputs a target's turns leave out (TargetResult's
// leaveOut): each costs a start whose baseline waits -timeout for it and
// its re-runs and replays; past it, a larger -timeout is the way.
const maxLeftOut = 8

// leaveOut returns the inputs the next turn is to leave out when this turn
// stopped before fuzzing only at inputs that were slow in fuzzbox's binary
// (a hang go test does not have), and whether there is to be a next turn:
// without -keepgoing the engine stops at such an input as at any failure,
// so the fuzz test would never be fuzzed. An input left out before that
// stops its baseline again means leaving out does not help.
func (c *checker) leaveOut() ([]string, bool) {
	if c == nil || c.cfg.KeepGoing || c.otherBefore || len(c.slowBefore) == 0 || len(c.r.leaveOut)+len(c.slowBefore) > maxLeftOut {
		return nil, false
	}
	for _, name := range c.slowBefore {
		if slices.Contains(c.r.leaveOut, name) {
			return nil, false
		}
	}
	return c.slowBefore, true
}

// setAside moves a reproducer written this turn out of testdata/ to the
// cache directory and says where it went; the user's own seed files stay.
func (c *checker) setAside(path, name string) string {
	switch {
	case path == "":
		return "the " + event.SeedEntry(c.r.Name, name) + " is yours and stays"
	case c.seeds[name]:
		return "the seed file " + path + " is yours and stays"
	}
	cache, err := c.cfg.cacheDir(c.r.Target)
	if err != nil {
		return "left at " + path + " (" + err.Error() + ")"
	}
	dir := filepath.Join(cache, unreproducedDir, c.r.Name)
	to := filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "left at " + path + " (" + err.Error() + ")"
	}
	if err := os.Rename(path, to); err != nil {
		return "left at " + path + " (" + err.Error() + ")"
	}
	for _, d := range c.made {
		os.Remove(d) // made by the engine for this reproducer: removed when empty
	}
	return "moved to " + to
}

// forgetBucket removes the crash buckets the engine recorded for e, a
// failure go test does not have, when this run made them (new): that of its
// reproducer's failure and the one it was caught as (e.Caught), beside the
// generated corpus and beside the -sync directory's entries (the engine's
// <dir>/FuzzX.buckets/<id>). A later failure of either, real, would be
// called known, and fuzzbox ci would pass it.
func (c *checker) forgetBucket(e event.Event) {
	if e.Bucket == "" || e.Known {
		return
	}
	var dirs []string
	if cache, err := c.cfg.cacheDir(c.r.Target); err == nil {
		dirs = append(dirs, cache)
	}
	if c.cfg.Sync != "" {
		dirs = append(dirs, c.cfg.Sync)
	}
	for _, dir := range dirs {
		for _, id := range []string{e.Bucket, e.Caught} {
			if id != "" {
				os.Remove(filepath.Join(dir, c.r.Name+".buckets", id))
			}
		}
	}
}

// limit bounds a replay: long enough for a slow input under go test, short
// enough that a replay that hangs does not hold up the run.
func (c *checker) limit() time.Duration {
	return max(time.Minute, 6*c.cfg.timeout())
}

// refutedBefore reports whether a failure go test passes came before the
// engine's start event: a seed's or a cached input's, in the baseline.
func (c *checker) refutedBefore() bool {
	return len(c.slowBefore) > 0 || c.otherBefore
}

// after says what the run does after a failure go test passes, as far as
// the turn's failures so far tell.
func (c *checker) after() string {
	_, without := c.leaveOut()
	switch {
	case without:
		return "; fuzzing starts again without it"
	case c.cfg.KeepGoing:
		return "; fuzzing goes on"
	case c.r.startedAt > 0 && c.r.resumes < maxResumes:
		return "; fuzzing goes on in a new fuzzing process, without it, while -fuzztime lasts"
	}
	return "; fuzzing stopped at it, as at any failure (run again to go on)"
}

// replayer names what replays failures: go test, or the package's own
// test binary (-stockbin: no go command runs, as under Bazel).
func (c *checker) replayer() string {
	if c.cfg.StockBinary != "" {
		return "the package's test binary (" + filepath.Base(c.cfg.StockBinary) + ")"
	}
	return "go test"
}

// replayOf returns, for messages, the replay of corpus entry name: go test
// (-race: with it) and its -run, or the stock test binary's -test.run.
func (c *checker) replayOf(name string, race bool) string {
	run := "run='^" + c.r.Name + "$/^" + event.EntryPattern(name) + "$'"
	switch {
	case c.cfg.StockBinary != "":
		return c.replayer() + " with -test." + run
	case race:
		return "go test -race -" + run
	}
	return "go test -" + run
}

func (c *checker) say(line string) {
	c.s.output(c.r.Target, line)
}

// correct takes the failures go test passed out of the engine's done event,
// which counted them: a run whose only failure was set aside found nothing.
func (c *checker) correct(e *event.Event) {
	if c == nil || e.Type != event.Done || c.refuted == 0 {
		return
	}
	e.Failures = max(0, e.Failures-c.refuted)
	e.Found = e.Failures > 0
}

// onlyRefuted reports whether every failure of the turn was one go test
// passes: the binary's failure exit is then not a finding.
func (c *checker) onlyRefuted() bool {
	return c != nil && c.refuted > 0 && c.confirmed == 0
}

// sameSignal reports whether the signal that ended a go test replay (its
// output out) is the one that ended fuzzbox's worker on the input (msg, the
// failure's message): the input sent it itself. Each of ten replays of an
// input that sends itself SIGTERM was "killed by a signal from outside".
func sameSignal(out, msg string) bool {
	line := killedRE.FindString(out)
	return line != "" && strings.Contains(msg, line)
}
