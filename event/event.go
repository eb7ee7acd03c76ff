package event

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"
)

// Event types, in the order a run produces them. Keep docs/engine.md's event
// table in sync (event_test.go checks it).
const (
	Build         = "build"          // the driver is about to build the packages (then, while a package's build goes on for 5 s, every 15 s with a message that says so)
	Tests         = "tests"          // the package's tests have run for a second before fuzzing, as go test -fuzz runs them first (then every statistics interval until the engine's first event)
	Baseline      = "baseline"       // the seed and generated corpus start running (then every statistics interval until fuzzing starts, with its progress)
	Start         = "start"          // fuzzing starts
	Stats         = "stats"          // periodic statistics
	Coverage      = "coverage"       // an input found new coverage
	Minimizing    = "minimizing"     // a confirmed failure is being minimized (then every statistics interval while fuzzing waits for it, without kind or message, or, once the run's time is up, with a message that says so)
	Failure       = "failure"        // a failure was recorded
	Flaky         = "flaky"          // a failing input did not fail again when re-run
	InternalError = "internal_error" // fuzzbox itself failed (not the code under test); the run goes on
	Warning       = "warning"        // something the user should know that is not a failure (docs/engine.md lists them): the code under test did what the testing package forbids and stock go test does not check, a test was flaky before fuzzing, a failure could not be confirmed, the run's cgroup or -sync directory has a problem
	Done          = "done"           // a target's turn ended, or it is left out of the run (not_fuzzed): every selected target gets one
	Output        = "output"         // a line the test binary printed
	Exit          = "exit"           // the driver's last event
)

// Failure kinds: the kind field of failure, flaky and minimizing events, and
// of driver.ReplayResult. The engine classifies failures into these; the
// driver and front ends read them.
const (
	KindPanic = "panic" // the fuzz function panicked (recovered by testing, or in another goroutine)
	KindFail  = "fail"  // t.Fatal, t.Error, t.Fail
	KindFatal = "fatal" // a runtime fatal error: concurrent map writes, stack overflow, ...
	KindExit  = "exit"  // the process exited (os.Exit, runtime.Goexit in main...) while running the input
	KindHang  = "hang"  // the input ran longer than the per-input timeout
	KindOOM   = "oom"   // the worker exceeded the memory limit or the runtime ran out of memory
	KindRace  = "race"  // the race detector reported a data race
	KindLeak  = "leak"  // goroutines the input started were left blocked after the fuzz function returned
)

// How a failure's minimization ended: the minimized field of its failure
// event (omitted when none was attempted).
const (
	MinimizedYes      = "yes"       // a smaller input that fails the same way was found and written
	MinimizedNo       = "no"        // every candidate was tried: nothing smaller fails the same way
	MinimizedCutShort = "cut short" // -fuzzminimizetime ran out first: a smaller input may exist
	MinimizedStopped  = "stopped"   // the run was stopped (Ctrl-C) first: a smaller input may exist
)

// Why a fuzz test was not fuzzed: the not_fuzzed field of its done event.
// Every selected fuzz test of a run that got as far as building its
// packages gets a done event. Each of its turns ends with one: the
// engine's when its fuzzing started, else the driver's, with not_fuzzed
// and the message saying why; and the driver's says why a fuzz test that
// gets no turn is left out. Each reason is a verdict, as fuzzbox fuzz's
// summary has it.
const (
	NotFuzzedError   = "error"   // it could not run: its package did not build, its binary could not start or failed only in fuzzbox (ERR, exit 2)
	NotFuzzedFailed  = "failed"  // its package's tests, or seeds go test -fuzz runs with them, failed before fuzzing (FAIL, exit 1)
	NotFuzzedSkipped = "skipped" // it skipped itself (f.Skip), or -skip leaves it out: it passes, as under go test -fuzz
	NotFuzzedStopped = "stopped" // the run was stopped (Ctrl-C) before its fuzzing started
)

// Types lists every event type.
var Types = []string{Build, Tests, Baseline, Start, Stats, Coverage, Minimizing, Failure, Flaky, InternalError, Warning, Done, Output, Exit}

// Event is one record of the stream. Fields are added over time, never
// renamed; zero-valued fields are omitted from the JSON form.
type Event struct {
	Type    string    `json:"type"`              // one of the constants above
	Time    time.Time `json:"time"`              // wall clock
	Target  string    `json:"target,omitempty"`  // fuzz test name ("FuzzX")
	Package string    `json:"package,omitempty"` // import path (added by the driver)
	Elapsed int64     `json:"elapsed_ms"`        // milliseconds since the driver started

	Workers     int     `json:"workers,omitempty"`         // start: worker processes
	Execs       int64   `json:"execs,omitempty"`           // stats, done: executions so far
	ExecsPerSec float64 `json:"execs_per_sec,omitempty"`   // stats: over the last interval; done: over the run
	Corpus      int     `json:"corpus,omitempty"`          // corpus entries
	New         int     `json:"new_interesting,omitempty"` // entries found since the baseline
	Edges       int     `json:"edges,omitempty"`           // stats, done: edges covered; coverage: new bucket bits
	Unstable    int     `json:"unstable,omitempty"`        // stats, done: edges an input reached once and not when re-run (not in edges)
	Progress    string  `json:"progress,omitempty"`        // baseline, start: "done/total"; done, warning: the baseline's when the run ended before fuzzing started

	Kind        string   `json:"kind,omitempty"`         // failure, flaky, minimizing, warning (an unconfirmed failure): panic, fail, fatal, exit, hang, oom, race, leak
	Message     string   `json:"message,omitempty"`      // failure, flaky, minimizing, internal_error, warning, tests: the text; done: why it was not fuzzed (with not_fuzzed)
	Line        string   `json:"line,omitempty"`         // failure, flaky, minimizing: the line of message that says what failed, when it is not the first (a t.Error after t.Log lines: the engine reads the source line of each file:line reported to tell a log call); Headline
	Reproducer  string   `json:"reproducer,omitempty"`   // failure: the reproducer's path ("" for a seed of f.Add's; a duplicate's is set when its input, minimized, is that earlier failure's); coverage: the new cache entry; warning: the input, saved to the cache
	Seed        string   `json:"seed,omitempty"`         // failure: the seed corpus entry that failed, as go test -run=Target/Seed names it (seed#0, a testdata file's name); its input is not minimized and nothing is written
	Entry       string   `json:"entry,omitempty"`        // failure: the generated-corpus entry (its file's name in the cache directory) whose input failed, which the reproducer holds minimized
	AfterReturn bool     `json:"after_return,omitempty"` // failure: a goroutine the input started failed after the fuzz function returned (fuzzbox waited for it); go test -run may end before it fails
	ExitZero    bool     `json:"exit_zero,omitempty"`    // failure: the input ended the process with exit status 0 while the fuzz function ran (syscall.Exit, C's exit): go test -fuzz fails it, go test -run passes it
	Duplicate   bool     `json:"duplicate,omitempty"`    // failure: same signature as an earlier one (-keepgoing)
	Count       int      `json:"count,omitempty"`        // duplicate failure: how many of its bucket it stands for, found since the last statistics interval (every one, when omitted: 1)
	Reruns      int      `json:"reruns,omitempty"`       // failure, flaky: re-runs of the input in fresh workers
	Reproduced  int      `json:"reproduced,omitempty"`   // failure, flaky: how many of them failed the same way
	Minimized   string   `json:"minimized,omitempty"`    // failure: how its minimization ended, Minimized*; omitted when not attempted
	Values      []string `json:"values,omitempty"`       // failure: a typed fuzz test's (package typed) failing arguments as Go expressions
	Failures    int      `json:"failures,omitempty"`     // done: unique failures found
	Pruned      int      `json:"pruned,omitempty"`       // done: redundant generated-corpus entries deleted
	Found       bool     `json:"found,omitempty"`        // done: at least one failure
	Internal    int      `json:"internal,omitempty"`     // done: internal errors survived
	Plateau     bool     `json:"plateau,omitempty"`      // done: fuzzing stopped early: no new coverage for -plateau
	NotFuzzed   string   `json:"not_fuzzed,omitempty"`   // done: its fuzzing did not start (the driver's done event, not the engine's), and why: error, failed, skipped or stopped (NotFuzzedError...), with message

	RaceReplayed int    `json:"race_replayed,omitempty"` // stats, done: inputs the race twin replayed (-racetwin)
	RaceSkipped  int    `json:"race_skipped,omitempty"`  // stats, done: inputs the race twin skipped: too many were waiting
	Imported     bool   `json:"imported,omitempty"`      // coverage: the input came from another instance (-sync)
	Recorded     bool   `json:"recorded,omitempty"`      // coverage: an imported input taken on the coverage its instance recorded (same test binary), not run here
	Instances    int    `json:"instances,omitempty"`     // stats, done: instances sharing the -sync directory, this one included, when more than one
	Bucket       string `json:"bucket,omitempty"`        // failure (duplicates too): id of the crash bucket (kind and innermost frames of the failure its reproducer shows, minimized)
	Known        bool   `json:"known,omitempty"`         // failure: its bucket was recorded before (an earlier run, another instance on the cache)
	Caught       string `json:"caught,omitempty"`        // failure: id of the bucket of the failure as it was caught, when minimizing changed its signature (recorded too, as an alias of Bucket)
	Error        string `json:"error,omitempty"`         // done: the run stopped on an internal error; exit: the reason for exit code 2
	StartFailed  string `json:"start_failed,omitempty"`  // done: the run stopped because the fuzz test's code before f.Fuzz failed in a worker process, which runs it again (what the worker printed): the fuzz test's failure (FAIL, exit 1), as under go test -fuzz; nothing is written
	Output       string `json:"output,omitempty"`        // output: the line, with its newline
	ExitCode     *int   `json:"exit_code,omitempty"`     // exit: the driver's exit status
}

// Headline is the line of e's message its status line quotes: Line, or
// the message's first line (FirstLine), cut at maxHeadline bytes (a
// 200-KB panic message filled the minimizing and found lines too, where
// the failure's own report shows it once).
func (e Event) Headline() string {
	h := e.Line
	if h == "" {
		h = FirstLine(e.Message)
	}
	if len(h) > maxHeadline {
		h = fmt.Sprintf("%s… (%d bytes)", strings.ToValidUTF8(h[:maxHeadline], ""), len(h))
	}
	return h
}

// maxHeadline bounds Headline, in bytes.
const maxHeadline = 1000

// SeedEntry names seed corpus entry seed of fuzz test target as go test's
// status line does: "seed corpus entry FuzzX/seed#0" (Event.Seed).
func SeedEntry(target, seed string) string { return "seed corpus entry " + target + "/" + seed }

// ReplayName is the name go test -run=Target/ReplayName gives a failure's
// input: its seed corpus entry's, or its reproducer file's; "" when it has
// neither.
func (e Event) ReplayName() string {
	if e.Seed != "" || e.Reproducer == "" {
		return e.Seed
	}
	return filepath.Base(e.Reproducer)
}

// EntryPattern is the -run pattern that matches corpus entry name, a
// subtest of its fuzz test, alone (without the ^ and $): its regular
// expression's metacharacters quoted, and white space and unprintable
// characters written as \x{…}, since the testing package turns those in a
// -run pattern into underscores and other escapes, where the entry's
// subtest name keeps them ("bad seed" matched nothing as such).
func EntryPattern(name string) string {
	var b strings.Builder
	for _, r := range regexp.QuoteMeta(name) {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			fmt.Fprintf(&b, `\x{%x}`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// A Decoder reads an event stream.
type Decoder struct {
	sc    *bufio.Scanner
	line  int
	ended bool // the stream's read failed: Next returned that error once
}

// NewDecoder returns a decoder reading JSON lines from r.
func NewDecoder(r io.Reader) *Decoder {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	return &Decoder{sc: sc}
}

// Next returns the next event. It returns io.EOF at the end of the stream,
// and an error naming the line for a line that is not an event; the decoder
// can go on after such an error. A failed read (the reader closed, a line
// over 64 MiB) ends the stream: Next returns its error, then io.EOF.
func (d *Decoder) Next() (Event, error) {
	if d.ended {
		return Event{}, io.EOF
	}
	for d.sc.Scan() {
		d.line++
		b := d.sc.Bytes()
		if len(b) == 0 {
			continue
		}
		var e Event
		if err := json.Unmarshal(b, &e); err != nil {
			return Event{}, fmt.Errorf("event: line %d: %w", d.line, err)
		}
		if e.Type == "" {
			return Event{}, fmt.Errorf("event: line %d: no type", d.line)
		}
		return e, nil
	}
	if err := d.sc.Err(); err != nil {
		d.ended = true
		return Event{}, fmt.Errorf("event: line %d: %w", d.line+1, err)
	}
	return Event{}, io.EOF
}

// Encode writes e as one JSON line.
func Encode(w io.Writer, e Event) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("event: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
