package event

import (
	"fmt"
	"io"
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

	mu sync.Mutex
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
	line := Format(e)
	if line == "" {
		return
	}
	if label := p.label(e); label != "" {
		line = "[" + label + "] " + line
	}
	fmt.Fprintln(p.W, line)
}

// label is the prefix of e's status line, or "".
func (p *Printer) label(e Event) string {
	if e.Target == "" {
		return ""
	}
	return p.Labels[e.Package+"."+e.Target]
}
