package engine

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/event"
)

// TestDropOversized: an entry too large for a worker's shared memory is
// left out with a warning that names it (it would never reach the fuzz
// function); the others stay, in order.
func TestDropOversized(t *testing.T) {
	events := new(bytes.Buffer)
	c := &coordinator{setup: &setup{rep: &reporter{events: events}}}
	small := newEntry([]any{[]byte("ok")}, nil, "seed#0", true)
	big := newEntry([]any{make([]byte, 64)}, nil, "testdata/fuzz/FuzzX/big", true)
	zero := newEntry([]any{[]byte{}}, nil, zeroPath, false)
	got := c.dropOversized([]*entry{small, big, zero}, 32)
	if len(got) != 2 || got[0] != small || got[1] != zero {
		t.Errorf("kept %d entries, want seed#0 and the zero input", len(got))
	}
	var warnings []string
	for _, e := range decodeEvents(t, events) {
		if e.Type == event.Warning {
			warnings = append(warnings, e.Message)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "testdata/fuzz/FuzzX/big") || !strings.Contains(warnings[0], "not run while fuzzing") {
		t.Errorf("warnings %q: want one naming the big entry", warnings)
	}
}

// TestWaitingEvent: the statistics tick says what go test -fuzz says while
// fuzzing has not started (the baseline's progress) or waits for a
// failure's minimization; with -keepgoing fuzzing goes on meanwhile, and
// the tick's statistics stand.
func TestWaitingEvent(t *testing.T) {
	c := &coordinator{setup: &setup{rep: &reporter{}}, inputs: make([]*entry, 5), next: 3, pending: 1}
	if e, ok := c.waitingEvent(); !ok || e.Type != event.Baseline || e.Progress != "2/5" {
		t.Errorf("during the baseline: %+v, %v; want a baseline event at 2/5", e, ok)
	}
	c.fuzzing = true
	if e, ok := c.waitingEvent(); ok {
		t.Errorf("while fuzzing: %+v; want the statistics", e)
	}
	c.rep.minimizing.Add(1)
	if e, ok := c.waitingEvent(); !ok || e.Type != event.Minimizing || e.Kind != "" {
		t.Errorf("while minimizing: %+v, %v; want a minimizing event without kind", e, ok)
	}
	c.opts.KeepGoing = true
	if e, ok := c.waitingEvent(); ok {
		t.Errorf("while minimizing with -keepgoing: %+v; want the statistics (fuzzing goes on)", e)
	}
}
