package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// fuzzboxArgs is the fuzzbox command line for one run in the target's
// directory.
// cachedir is a fresh directory so that runs share no corpus (nor go test
// -fuzz's: noGoCache).
func fuzzboxArgs(cfg config, t target, cachedir string, extra ...string) []string {
	args := []string{cfg.fuzzbox, "fuzz", "-json", noGoCache(cfg.fuzzbox), "-fuzz=^" + t.fuzz + "$",
		"-fuzztime=" + cfg.fuzztime.String(), "-parallel=" + strconv.Itoa(cfg.parallel),
		"-fuzzminimizetime=" + cfg.minimizetime, "-cachedir=" + cachedir}
	args = append(args, cfg.fuzzboxArgs...)
	args = append(args, extra...)
	return append(args, ".")
}

// event is one line of fuzzbox fuzz -json output (docs/engine.md). Fields a
// type does not carry stay zero.
type event struct {
	Type        string  `json:"type"` // build, start, stats, coverage, minimizing, failure, done
	ElapsedMS   float64 `json:"elapsed_ms"`
	Execs       int64   `json:"execs"`
	ExecsPerSec float64 `json:"execs_per_sec"`
	Kind        string  `json:"kind"` // failure: panic, fatal, exit, hang, oom, race, fail
	Message     string  `json:"message"`
	Reproducer  string  `json:"reproducer"`
	Found       bool    `json:"found"`
	Duplicate   bool    `json:"duplicate"`  // failure: one already reported (-keepgoing)
	Output      string  `json:"output"`     // output: a line the fuzzing binary printed
	NotFuzzed   string  `json:"not_fuzzed"` // done: the fuzz test was not fuzzed (why)
}

// fuzzboxParser reads the fuzzbox fuzz -json event stream. It is not safe
// for concurrent use.
type fuzzboxParser struct {
	start *event // the start event
	// known, if set, tells the target's known bug from other failures: with
	// -keepgoing (-fuzzboxargs), the run goes on past other bugs, and the
	// result is the first failure that is the known bug.
	known    func(kind, text string) bool
	failures []caughtFailure // in the order reported, duplicates left out
	pending  *caughtFailure  // a failure being minimized, not yet reported
	last     *event          // the last stats or done event
	done     bool
	bad      int // lines that are not JSON events
	early    int // coverage events in the first earlyMS after start
}

// earlyMS is the window of runResult.Early: the first 300 ms of fuzzing,
// where a text parser's corpus grows every few executions and one instance
// of two workers and two synced instances of one differ most
// (bench/README.md, "Corpus sync").
const earlyMS = 300

// A caughtFailure is one failure event and when its input was found.
type caughtFailure struct {
	failure *event
	caught  *event // the minimizing or failure event: when the failing input was found
	before  *event // the last stats event before caught, if any
}

func newFuzzboxParser(known func(kind, text string) bool) *fuzzboxParser {
	return &fuzzboxParser{known: known}
}

// line consumes one line of standard output.
func (p *fuzzboxParser) line(_ time.Duration, s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	var e event
	if err := json.Unmarshal([]byte(s), &e); err != nil || e.Type == "" {
		p.bad++
		return
	}
	switch e.Type {
	case "start":
		if p.start == nil {
			p.start = &e
		}
	case "minimizing":
		p.catch(&e)
	case "failure":
		if e.Duplicate {
			return
		}
		p.catch(&e)
		p.pending.failure = &e
		p.failures = append(p.failures, *p.pending)
		p.pending = nil
	case "coverage":
		if p.start != nil && e.ElapsedMS-p.start.ElapsedMS <= earlyMS {
			p.early++
		}
	case "stats":
		p.last = &e
	case "done":
		p.done = true
		if e.NotFuzzed == "" { // the driver's for a test not fuzzed has no numbers, and no fuzzing time
			p.last = &e
		}
	}
}

// catch records e as the moment the next failing input was found, if it
// is the first event about it.
func (p *fuzzboxParser) catch(e *event) {
	if p.pending == nil {
		p.pending = &caughtFailure{caught: e, before: p.last}
	}
}

// execsAtCatch estimates the executions before the failing input: the last
// stats event's count plus its rate times the time since, or, with no stats
// event before the failure, the run's overall rate times the time to failure.
func (p *fuzzboxParser) execsAtCatch(f caughtFailure, startMS float64) int64 {
	if f.before != nil {
		return f.before.Execs + int64(f.before.ExecsPerSec*(f.caught.ElapsedMS-f.before.ElapsedMS)/1000)
	}
	if p.last != nil && p.last.ElapsedMS > startMS {
		rate := float64(p.last.Execs) / ((p.last.ElapsedMS - startMS) / 1000)
		return int64(rate * (f.caught.ElapsedMS - startMS) / 1000)
	}
	return 0
}

// chosen returns the index of the failure the run is scored by: the first
// known bug, else the first failure; -1 without failures.
func (p *fuzzboxParser) chosen() int {
	if len(p.failures) == 0 {
		return -1
	}
	if p.known != nil {
		for i, f := range p.failures {
			if p.known(f.failure.Kind, f.failure.Message) {
				return i
			}
		}
	}
	return 0
}

// result fills the engine-specific fields of r.
func (p *fuzzboxParser) result(r *runResult) {
	var startMS float64
	if p.start != nil {
		startMS = p.start.ElapsedMS
	}
	if p.last != nil {
		r.Execs = p.last.Execs
		if d := p.last.ElapsedMS - startMS; d > 0 {
			r.FuzzS = d / 1000
			r.ExecsPerSec = float64(p.last.Execs) / (d / 1000)
		} else {
			r.ExecsPerSec = p.last.ExecsPerSec
		}
	}
	if p.start != nil {
		r.Early = float64(p.early)
	}
	if i := p.chosen(); i >= 0 {
		f := p.failures[i]
		r.Failed = true
		r.Kind, r.Message, r.Reproducer = f.failure.Kind, firstLine(f.failure.Message), f.failure.Reproducer
		r.FailText = f.failure.Message
		r.TTF = (f.caught.ElapsedMS - startMS) / 1000 // before minimizing, as for native
		r.ExecsToFailure = p.execsAtCatch(f, startMS)
		for _, e := range p.failures[:i] {
			r.Earlier = append(r.Earlier, fmt.Sprintf("%s at %.1fs: %s", e.failure.Kind, (e.caught.ElapsedMS-startMS)/1000, firstLine(e.failure.Message)))
		}
	}
	if p.bad > 0 && r.Note == "" {
		r.Note = strconv.Itoa(p.bad) + " non-JSON stdout lines"
	}
}

// firstLine is the first line of a failure message that says something:
// testing's "--- FAIL: FuzzX" header lines are skipped.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "--- FAIL") {
			return l
		}
	}
	return strings.TrimSpace(s)
}

// noGoCaches caches noGoCache's answers, by fuzzbox binary.
var noGoCaches sync.Map

// noGoCache returns the flag that keeps fuzzbox fuzz from starting from go
// test -fuzz's generated corpus ($GOCACHE/fuzz), -gocache=false, so that
// runs share no corpus; for a fuzzbox build from before that flag (an
// earlier build compared with -fuzzbox), which reads no such corpus, -json
// again (every caller passes -json).
func noGoCache(fuzzbox string) string {
	if v, ok := noGoCaches.Load(fuzzbox); ok {
		return v.(string)
	}
	flag := "-json"
	if out, _ := exec.Command(fuzzbox, "fuzz", "-h").CombinedOutput(); strings.Contains(string(out), "-gocache") {
		flag = "-gocache=false"
	}
	noGoCaches.Store(fuzzbox, flag)
	return flag
}
