package event

import (
	"fmt"
	"io"
	"sync"
)

// A Printer writes a run's events as the fuzzbox command shows them: JSON
// lines, or status lines (Format) and the fuzzing binary's output as is;
// when events of several fuzz tests have been seen, status lines start with
// the test's name. It is safe for concurrent use.
type Printer struct {
	W    io.Writer
	JSON bool

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
	if p.names == nil {
		p.names = map[string]bool{}
	}
	if e.Target != "" {
		p.names[e.Package+"."+e.Target] = true
	}
	if len(p.names) > 1 && e.Target != "" {
		line = "[" + e.Target + "] " + line
	}
	fmt.Fprintln(p.W, line)
}
