package event

import (
	"fmt"
	"io"
	"path/filepath"
	"sync"
)

// A Printer writes a run's events as the fuzzbox command shows them: JSON
// lines, or status lines (Format) and the fuzzing binary's output as is.
// Status lines of a fuzz test with a label start with it in brackets. It is
// safe for concurrent use.
type Printer struct {
	W    io.Writer
	JSON bool
	// Labels maps "package.FuzzX" (Event.Package, Event.Target) to the
	// test's label: for a run of several fuzz tests, their names.
	Labels map[string]string
	// Dirs maps "package.FuzzX" to the directory the status lines name
	// the test's reproducers from: they join it to Event.Reproducer, which
	// is relative to the package's directory. For a run of fuzz tests of
	// several packages, the package's directory as seen from where the run
	// started. JSON lines keep the events as they are.
	Dirs map[string]string

	mu sync.Mutex
	// began maps "package.FuzzX" to when its fuzzing began (its first
	// baseline event's Elapsed): its status lines count from there, as go
	// test -fuzz's do, not from the run's start (builds, tests).
	began map[string]int64
}

// Print writes e.
func (p *Printer) Print(e Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.JSON {
		Encode(p.W, e)
		return
	}
	if e.Type == Output {
		io.WriteString(p.W, e.Output)
		return
	}
	key := e.Package + "." + e.Target
	if dir := p.Dirs[key]; dir != "" && e.Reproducer != "" && !filepath.IsAbs(e.Reproducer) {
		e.Reproducer = filepath.Join(dir, e.Reproducer)
	}
	p.sinceBegan(key, &e)
	line := Format(e)
	if line == "" {
		return
	}
	if label := p.label(e); label != "" {
		line = "[" + label + "] " + line
	}
	fmt.Fprintln(p.W, line)
}

// sinceBegan makes e's Elapsed count from when its fuzz test (key) began
// fuzzing.
func (p *Printer) sinceBegan(key string, e *Event) {
	if e.Type == Baseline && e.Target != "" {
		if p.began == nil {
			p.began = map[string]int64{}
		}
		if _, ok := p.began[key]; !ok {
			p.began[key] = e.Elapsed
		}
	}
	if began, ok := p.began[key]; ok && e.Elapsed >= began {
		e.Elapsed -= began
	}
}

// label is the prefix of e's status line, or "".
func (p *Printer) label(e Event) string {
	if e.Target == "" {
		return ""
	}
	return p.Labels[e.Package+"."+e.Target]
}
