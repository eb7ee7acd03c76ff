package engine

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// Event is one record of the -json event stream (docs/engine.md). The
// fuzzbox command, the Bazel rules and the LSP sidecar consume it; fields
// are added, never renamed. Zero-valued fields are omitted.
type Event struct {
	Type    string    `json:"type"`              // build, start, baseline, stats, coverage, failure, done (and output, from fuzzbox fuzz)
	Time    time.Time `json:"time"`              // wall clock
	Target  string    `json:"target"`            // fuzz target name
	Package string    `json:"package,omitempty"` // import path (added by fuzzbox fuzz)
	Elapsed int64     `json:"elapsed_ms"`

	Workers     int     `json:"workers,omitempty"`       // start: worker processes
	Execs       int64   `json:"execs,omitempty"`         // stats, done: executions so far
	ExecsPerSec float64 `json:"execs_per_sec,omitempty"` // stats: rate over the last interval
	Corpus      int     `json:"corpus,omitempty"`        // corpus entries
	New         int     `json:"new_interesting,omitempty"`
	Edges       int     `json:"edges,omitempty"`    // edges covered
	Progress    string  `json:"progress,omitempty"` // baseline: "done/total"

	Kind       string `json:"kind,omitempty"`       // failure: panic, fail, fatal, exit, hang, oom, race
	Message    string `json:"message,omitempty"`    // failure: the failure text
	Reproducer string `json:"reproducer,omitempty"` // failure: path of the reproducer; coverage: path of the new cache entry
	Duplicate  bool   `json:"duplicate,omitempty"`  // failure: same signature as an earlier one (-keepgoing)
	Failures   int    `json:"failures,omitempty"`   // done: unique failures found
	Pruned     int    `json:"pruned,omitempty"`     // done: redundant generated-corpus entries deleted
	Found      bool   `json:"found,omitempty"`      // done: at least one failure
	Error      string `json:"error,omitempty"`      // done: the run stopped on an internal error
	Output     string `json:"output,omitempty"`     // output: a line the test binary printed
	ExitCode   *int   `json:"exit_code,omitempty"`  // exit: fuzzbox fuzz's exit status
}

// reporter writes events as JSON lines, or status lines for people.
type reporter struct {
	mu     sync.Mutex
	target string
	start  time.Time
	events io.Writer // JSON lines; nil for human output
	log    io.Writer
}

func (r *reporter) emit(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e.Time, e.Target = time.Now(), r.target
	e.Elapsed = e.Time.Sub(r.start).Milliseconds()
	if r.events != nil {
		b, _ := json.Marshal(e)
		r.events.Write(append(b, '\n'))
		return
	}
	if line := FormatEvent(e); line != "" {
		fmt.Fprintln(r.log, line)
	}
}

// FormatEvent renders an event as the status line go test -fuzz would
// print for it, or "" for events people need not see.
func FormatEvent(e Event) string {
	el := time.Duration(e.Elapsed) * time.Millisecond
	el = el.Round(time.Second)
	switch e.Type {
	case "baseline":
		return fmt.Sprintf("fuzz: elapsed: %s, gathering baseline coverage: %s completed", fmtDur(el), e.Progress)
	case "start":
		return fmt.Sprintf("fuzz: elapsed: %s, gathering baseline coverage: %s completed, now fuzzing with %d workers", fmtDur(el), e.Progress, e.Workers)
	case "stats", "done":
		line := fmt.Sprintf("fuzz: elapsed: %s, execs: %d (%.0f/sec), new interesting: %d (total: %d), edges: %d",
			fmtDur(el), e.Execs, e.ExecsPerSec, e.New, e.Corpus, e.Edges)
		if e.Pruned > 0 {
			line += fmt.Sprintf(", pruned: %d redundant cache entries", e.Pruned)
		}
		return line
	case "minimizing":
		return fmt.Sprintf("fuzz: elapsed: %s, minimizing %s failure: %s", fmtDur(el), e.Kind, firstLine(e.Message))
	case "failure":
		if e.Duplicate {
			return ""
		}
		return fmt.Sprintf("fuzz: elapsed: %s, found %s failure: %s (written to %s)", fmtDur(el), e.Kind, firstLine(e.Message), e.Reproducer)
	}
	return ""
}

func fmtDur(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return d.String()
}
