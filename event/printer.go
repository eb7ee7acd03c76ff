package event

import (
	"fmt"
	"io"
	"sync"
)

// A Printer writes a run's events as the fuzzbox command shows them: JSON
// lines, or status lines (Format) and the fuzzing binary's output as is.
// In a run of several fuzz tests, status lines start with the test's label
// in brackets: its entry in Labels, or, without Labels, its name once events
// of several tests have been seen. It is safe for concurrent use.
type Printer struct {
	W    io.Writer
	JSON bool
	// Labels maps "package.FuzzX" (Event.Package, Event.Target) to the
	// test's label, for runs whose fuzz tests are known in advance.
	Labels map[string]string

	mu    sync.Mutex
	names map[string]bool // package.target pairs seen
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
	key := e.Package + "." + e.Target
	if p.Labels != nil {
		return p.Labels[key]
	}
	if p.names == nil {
		p.names = map[string]bool{}
	}
	p.names[key] = true
	if len(p.names) > 1 {
		return e.Target
	}
	return ""
}
