package engine

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Goroutine leaks (worker side). After an input's fuzz function has
// returned, goroutines the code under test started for it and left blocked
// (on a channel, a select, a sync.Mutex or RWMutex, a WaitGroup, a Cond)
// are a leak: nothing is left to wake them. The check must cost nothing on
// the hot path, so it has three tiers:
//
//  1. every execution compares runtime.NumGoroutine (a few nanoseconds)
//     before and after; no more goroutines, no more work;
//  2. when there are more after a few yields (the testing package's own
//     goroutine for the input may still be exiting), one goroutine dump
//     (runtime.Stack of all) looks for goroutines not in the previous dump,
//     created by the code under test (leakCreator) and not sleeping or in a
//     system call (candidates);
//  3. with candidates, the input is run twice more in the same worker, a
//     dump after each, and after leakGrace a last one: it is a leak only if
//     each of the three runs left a goroutine created at the same place, and
//     all of those are still blocked. A goroutine that the first execution
//     of a process starts once (a sync.Once cache, a background flusher) is
//     not started again by the second run, so it is never blamed.
//
// A check that finds nothing makes the next ones rarer (leakChecker.skip:
// up to leakMaxDumpSkip after a dump without candidates, leakMaxSkip after
// re-runs without a leak), so a target that keeps goroutines running past
// its executions pays for a dump on a fraction of them. In a fuzz call of a
// -keepgoing run, candidates that would be a leak the run has recorded
// already (isKnown) are taken as one without the re-runs, and the checks
// after it thin out as after a dump without candidates: a test that leaks on
// most inputs (go-milter's, through an io.Pipe) fuzzed at a seventh of its
// rate without the check, each known leak costing two re-runs and
// leakGrace. The error returned for a leak is
// the input's failure, of kind leak: the coordinator confirms it in a fresh
// worker (which runs the same check) and minimizes it like a panic.

// leaksEnv carries, from the coordinator to its workers, the import path of
// the package under test when leak detection is on ("" or unset: off; "-"
// on, with no package known).
const leaksEnv = "FUZZBOX_LEAKS"

// leakHeader starts the message of a leak; failureKind recognizes it.
const leakHeader = "fuzzbox: goroutine leak: "

// leakRuns is how many runs in a row of one input must each leave a
// goroutine created at the same place.
const leakRuns = 3

// leakGrace is how long the leaked goroutines must stay blocked after the
// last run.
const leakGrace = 50 * time.Millisecond

// leakMaxRun bounds the duration of an execution whose leaks are looked
// for: the check runs the input leakRuns times within one execution, as the
// watchdog sees it, and must stay well under the hang timeout.
const leakMaxRun = 100 * time.Millisecond

// leakMaxSkip bounds leakChecker.skip after re-runs that found no leak
// (each costs two executions and leakGrace), leakMaxDumpSkip after a dump
// that found no candidate (about 50 µs).
const (
	leakMaxSkip     = 1024
	leakMaxDumpSkip = 64
)

// leakChecker is one worker's leak detection. It is used by the goroutine
// that serves the coordinator's calls, never concurrently.
type leakChecker struct {
	pkg     string              // import path of the package under test; "" if unknown
	known   map[uint64]bool     // goroutine ids of the last dump
	skip    int                 // slow checks to skip before the next dump
	penalty int                 // skip after the next fruitless check
	stacks  func() string       // a dump of every goroutine (allStacks)
	sleep   func(time.Duration) // time.Sleep
	// patience is the longest wait for leaked goroutines to end by
	// themselves (leakPatienceEnv): less under a short -timeout, which
	// the check's time counts towards.
	patience time.Duration
	// isKnown reports whether a leak's message has a signature the run
	// records no more (workerServer.knownLeak); nil outside fuzz calls, so
	// that minimizing and confirming a leak always re-run the input.
	isKnown func(msg string) bool
}

// newLeakChecker returns the worker's checker, or nil when leaksEnv turns
// detection off. It records the goroutines running now, the worker's own.
func newLeakChecker() *leakChecker {
	pkg := os.Getenv(leaksEnv)
	if pkg == "" {
		return nil
	}
	if pkg == "-" {
		pkg = ""
	}
	lc := startLeakChecker(pkg, allStacks(), time.Sleep)
	if d, err := time.ParseDuration(os.Getenv(leakPatienceEnv)); err == nil {
		lc.patience = d
	}
	return lc
}

// leakPatienceEnv carries, from the coordinator to its workers, the
// longest wait for leaked goroutines to end by themselves (a duration).
const leakPatienceEnv = "FUZZBOX_LEAK_PATIENCE"

// leakPatience returns the longest wait for leaked goroutines to end by
// themselves under a -timeout of timeout: leakMaxPatience, or less, so
// that the waits (about twice the longest) take a sixth of it at most.
func leakPatience(timeout time.Duration) time.Duration {
	return min(leakMaxPatience, timeout/12)
}

// startLeakChecker returns a checker for the package under test pkg that
// takes dumps with stacks, knowing the goroutines of one taken now.
func startLeakChecker(pkg string, stacks func() string, sleep func(time.Duration)) *leakChecker {
	lc := &leakChecker{pkg: pkg, stacks: stacks, sleep: sleep, patience: leakMaxPatience}
	lc.known = goroutineIDs(lc.dump())
	return lc
}

// check looks for a leak of the execution that just returned after running
// took d, with before goroutines before it started; rerun runs the same
// input again. It returns the leak's message, or "".
func (lc *leakChecker) check(before int, d time.Duration, rerun func() error) string {
	if !stillMore(before) {
		return ""
	}
	if lc.skip > 0 {
		lc.skip--
		return ""
	}
	if d > leakMaxRun {
		return ""
	}
	msg, reran, known := lc.confirm(rerun)
	switch {
	case known:
		lc.penalty = min(max(1, 2*lc.penalty), leakMaxDumpSkip)
	case msg != "":
		lc.penalty = 0
	case reran:
		lc.penalty = min(max(1, 2*lc.penalty), leakMaxSkip)
	default:
		lc.penalty = min(max(1, 2*lc.penalty), leakMaxDumpSkip)
	}
	lc.skip = lc.penalty
	return msg
}

// stillMore reports whether there are still more goroutines than before
// after a few yields to the ones that are exiting.
func stillMore(before int) bool {
	for range 4 {
		if runtime.NumGoroutine() <= before {
			return false
		}
		runtime.Gosched()
	}
	return runtime.NumGoroutine() > before
}

// confirm runs the input again until it has run leakRuns times, each run
// followed by a dump, and returns the leak's message if each run left
// goroutines created at one place, still blocked leakGrace after the last,
// and whether it ran the input again. Candidates of the first dump that
// make a known leak (isKnown) are reported as it at once (known).
func (lc *leakChecker) confirm(rerun func() error) (msg string, reran, known bool) {
	var runs [][]goroutine // per run: the goroutines it left
	for i := 0; ; i++ {
		all := lc.dump()
		fresh := leakCandidates(all, lc.known, lc.pkg)
		lc.known = goroutineIDs(all)
		if len(fresh) == 0 {
			return "", i > 0, false
		}
		if i == 0 && lc.isKnown != nil {
			if msg := leakMessage(fresh, 0); lc.isKnown(msg) {
				return msg, false, true
			}
		}
		runs = append(runs, fresh)
		if i == leakRuns-1 {
			break
		}
		if rerun() != nil {
			return "", true, false // the input failed this time: not a leak to report
		}
	}
	lc.sleep(leakGrace)
	waited := leakGrace
	all := lc.dump()
	leaked := leakedEachRun(runs, all)
	// Goroutines that end by themselves a while later (a timer's, a
	// backoff's) or once the collector runs the cleanup or finalizer that
	// stops them (go-cache's janitor, fasthttp's FS cache) are no leak:
	// they are waited for, as goleak retries, before a leak is reported.
	// Both were reported on the first seed; go test passes them.
	for wait := leakGrace; len(leaked) > 0 && wait <= lc.patience; wait *= 2 {
		runtime.GC()
		runtime.GC() // the first queues the cleanups and finalizers; they run before the second ends
		lc.sleep(wait)
		waited += wait
		all = lc.dump()
		leaked = leakedEachRun(runs, all)
	}
	lc.known = goroutineIDs(all)
	return leakMessage(leaked, waited), true, false
}

// leakMaxPatience is the longest of the waits for leaked goroutines to end
// by themselves, each twice the last from leakGrace: 1.55 s in all, as
// goleak retries for about as long.
const leakMaxPatience = 800 * time.Millisecond

// dump returns the goroutines running now.
func (lc *leakChecker) dump() []goroutine { return parseGoroutines(lc.stacks()) }

// allStacks returns a function that dumps the stacks of every goroutine
// (runtime.Stack), reusing its buffer.
func allStacks() func() string {
	buf := make([]byte, 64<<10)
	return func() string {
		for {
			n := runtime.Stack(buf, true)
			if n < len(buf) || len(buf) >= 64<<20 {
				return string(buf[:n])
			}
			buf = make([]byte, 2*len(buf))
		}
	}
}

// goroutine is one goroutine of a dump.
type goroutine struct {
	id      uint64
	state   string // "chan send", "select", "sync.Mutex.Lock", ... (without ", N minutes")
	creator string // the function of the "created by" line; "" for none
	site    string // creator and the file:line under it: where it was started
	text    string // the goroutine's part of the dump
}

// Patterns of a goroutine dump.
var (
	goroutineHeadRE = regexp.MustCompile(`^goroutine (\d+) \[([^\]]*)\]:`)
	createdByRE     = regexp.MustCompile(`(?m)^created by (\S+)(?: in goroutine \d+)?\n[ \t]*(\S+\.go:\d+)`)
)

// parseGoroutines splits a dump of every goroutine (runtime.Stack's, a
// SIGQUIT report's) into goroutines; text that is not one is skipped.
func parseGoroutines(dump string) []goroutine {
	var out []goroutine
	for _, block := range goroutineGapRE.Split(dump, -1) {
		block = strings.Trim(block, "\n")
		m := goroutineHeadRE.FindStringSubmatch(block)
		if m == nil {
			continue
		}
		id, _ := strconv.ParseUint(m[1], 10, 64)
		g := goroutine{id: id, state: strings.TrimSpace(strings.SplitN(m[2], ",", 2)[0]), text: block}
		if c := createdByRE.FindStringSubmatch(block); c != nil {
			g.creator, g.site = c[1], c[1]+" at "+c[2]
		}
		out = append(out, g)
	}
	return out
}

// goroutineIDs returns the ids of gs.
func goroutineIDs(gs []goroutine) map[uint64]bool {
	ids := make(map[uint64]bool, len(gs))
	for _, g := range gs {
		ids[g.id] = true
	}
	return ids
}

// leakCandidates returns the goroutines of all not in known that the code
// under test (package pkg) created and that are not sleeping or in a system
// call: those that may be leaked.
func leakCandidates(all []goroutine, known map[uint64]bool, pkg string) []goroutine {
	var out []goroutine
	for _, g := range all {
		if !known[g.id] && leakCreator(g.creator, pkg) && !idleState(g.state) {
			out = append(out, g)
		}
	}
	return out
}

// idleState reports whether a goroutine in state is waiting on time or the
// system rather than on another goroutine: never a leak.
func idleState(state string) bool {
	return stateIn(state, "sleep", "syscall", "IO wait", "timer goroutine", "GC", "finalizer wait", "force gc", "trace reader")
}

// stateIn reports whether a goroutine's state is one of states (or starts
// with one: "sleep" is also "sleep, 2 minutes").
func stateIn(state string, states ...string) bool {
	return slices.ContainsFunc(states, func(p string) bool { return strings.HasPrefix(state, p) })
}

// leakCreator reports whether fn, the function that created a goroutine,
// is the code under test's: in the package under test, pkg (or its external
// test package), or else not the runtime's, the testing package's or
// fuzzbox's (internalFrame) and not the standard library's, a package whose
// first path element has no dot, unless that element is pkg's (a module
// path without a dot, or the standard library fuzzed itself).
func leakCreator(fn, pkg string) bool {
	if fn == "" {
		return false
	}
	p := funcPackage(fn)
	if pkg != "" && (p == pkg || p == pkg+"_test") {
		return true
	}
	if internalFrame(fn) {
		return false
	}
	return !stdPackage(p) || pkg != "" && firstElem(p) == firstElem(pkg)
}

func firstElem(path string) string { return strings.SplitN(path, "/", 2)[0] }

// stdPackage reports whether import path p is the standard library's, by
// its first element, which has no dot there.
func stdPackage(p string) bool { return !strings.Contains(firstElem(p), ".") }

// leakedEachRun returns the goroutines of the last run that leaked: created
// at a place where each run left a goroutine, all of which are blocked in
// last (the dump after the grace period).
func leakedEachRun(runs [][]goroutine, last []goroutine) []goroutine {
	blocked := map[uint64]bool{}
	for _, g := range last {
		if blockingState(g.state) {
			blocked[g.id] = true
		}
	}
	var out []goroutine
	for _, g := range runs[len(runs)-1] {
		if blocked[g.id] && everyRunBlockedAt(runs, g.site, blocked) {
			for _, l := range last {
				if l.id == g.id {
					out = append(out, l)
				}
			}
		}
	}
	return out
}

// everyRunBlockedAt reports whether each run left a goroutine created at
// site that is blocked now.
func everyRunBlockedAt(runs [][]goroutine, site string, blocked map[uint64]bool) bool {
	for _, run := range runs {
		found := false
		for _, g := range run {
			found = found || g.site == site && blocked[g.id]
		}
		if !found {
			return false
		}
	}
	return true
}

// leakMessage reports leaked goroutines, or "" for none: a first line that
// says what leaked, then each goroutine's stack and creation site as the
// dump shows them.
func leakMessage(leaked []goroutine, waited time.Duration) string {
	if len(leaked) == 0 {
		return ""
	}
	var b bytes.Buffer
	g := leaked[0]
	what := "1 goroutine"
	if len(leaked) > 1 {
		what = fmt.Sprintf("%d goroutines", len(leaked))
	}
	after := "" // a known leak's duplicate, from the first dump
	if waited > 0 {
		after = " " + waited.Round(10*time.Millisecond).String()
	}
	fmt.Fprintf(&b, "%s%s started by the input still blocked (%s)%s after the fuzz function returned, created by %s; the same on each of %d runs in a row\n",
		leakHeader, what, g.state, after, g.creator, leakRuns)
	b.WriteString(leakHint)
	for _, g := range leaked {
		b.WriteString("\n" + g.text + "\n")
	}
	return b.String()
}

// leakHint follows a leak's first line: stock go test passes such an
// input (a seed that leaks, in milter's own fuzz test, stopped fuzzbox where
// go test -fuzz fuzzed), so the report says what the check is and how to
// turn it off.
const leakHint = "(a check of fuzzbox's own: go test does not fail on a leak; fix it, or fuzz with -leaks=false)\n"

// leakKey is failureKey of a leak: where its first goroutine was created.
func leakKey(msg string) string {
	if c := createdByRE.FindStringSubmatch(msg); c != nil {
		return c[1] + " at " + c[2]
	}
	return ""
}
