package main

import (
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/event"
)

// TestFuzzFlaky: a failure that does not fail again in a fresh worker is
// reported as flaky and not written; -keepflaky writes it, marked FLAKY.
func TestFuzzFlaky(t *testing.T) {
	dir := e2eModule(t, "targets")
	r := e2eFuzz(t, dir, "-json", "-fuzz=^FuzzFlaky$", "-fuzztime=3s", ".")
	if r.code != 0 {
		t.Fatalf("want exit 0: a flaky failure is not a finding\n%s", r)
	}
	evs := e2eEvents(t, r.stdout)
	i := e2eFirstOfType(evs, event.Flaky)
	if i < 0 || evs[i].Kind != "fail" || !strings.Contains(evs[i].Message, "fuzzbox-e2e: flaky") {
		t.Fatalf("no flaky event of kind fail\n%s", r)
	}
	if e2eFirstOfType(evs, event.Failure) >= 0 || len(e2eReproducers(t, dir, "FuzzFlaky")) > 0 {
		t.Errorf("a flaky failure was reported or written\n%s", r)
	}

	r = e2eFuzz(t, dir, "-keepflaky", "-fuzz=^FuzzFlaky$", "-fuzztime=60s", ".")
	if r.code != 1 || !strings.Contains(r.stdout, "FLAKY: it did not fail again in 3 re-runs") {
		t.Fatalf("-keepflaky: want exit 1 and a failure line marked FLAKY\n%s", r)
	}
	if n := len(e2eReproducers(t, dir, "FuzzFlaky")); n != 1 {
		t.Errorf("-keepflaky wrote %d reproducers, want 1", n)
	}
}

// TestFuzzEveryEventType: the event types docs/engine.md lists are all
// produced by real runs (internal_error, which no correct fuzzbox produces
// on its own, is produced by engine/coordinator_test.go's fake workers).
func TestFuzzEveryEventType(t *testing.T) {
	dir := e2eModule(t, "targets")
	seen := map[string]bool{}
	for _, args := range [][]string{
		{"-fuzz=^FuzzNever$", "-fuzztime=4s"},  // stats every 3 s, coverage
		{"-fuzz=^FuzzFlaky$", "-fuzztime=2s"},  // flaky
		{"-fuzz=^FuzzModify$", "-fuzztime=2s"}, // warning
		{"-fuzz=^FuzzPanic$", "-fuzztime=60s"}, // minimizing, failure
	} {
		r := e2eFuzz(t, dir, append(append([]string{"-json"}, args...), ".")...)
		for _, e := range e2eEvents(t, r.stdout) {
			seen[e.Type] = true
		}
	}
	for _, typ := range event.Types {
		if !seen[typ] && typ != event.InternalError {
			t.Errorf("no %s event in the runs (seen: %v)", typ, seen)
		}
	}
}
