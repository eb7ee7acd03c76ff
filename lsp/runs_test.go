package lsp

import (
	"slices"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// TestShowCoverage: a run reports new coverage at most every coverageEvery.
func TestShowCoverage(t *testing.T) {
	var r run
	t0 := time.Unix(1000, 0)
	var shown []bool
	for _, d := range []time.Duration{0, time.Millisecond, coverageEvery - time.Millisecond, coverageEvery, coverageEvery + time.Millisecond, 2 * coverageEvery} {
		shown = append(shown, r.showCoverage(t0.Add(d)))
	}
	if want := []bool{true, false, false, true, false, true}; !slices.Equal(shown, want) {
		t.Errorf("shown %v, want %v", shown, want)
	}
}

// TestPhaseMessage: while a build or the package's tests go on, the
// progress says what the driver's notice says (a first build's minute or two
// included), not a bare "building".
func TestPhaseMessage(t *testing.T) {
	slow := "building the fuzzing binary of example.com/p (5s so far; a first build instruments the standard library too, a minute or two)"
	for _, c := range []struct {
		e    event.Event
		want string
	}{
		{event.Event{Type: event.Build}, "building"},
		{event.Event{Type: event.Build, Message: slow}, slow},
		{event.Event{Type: event.Tests, Message: "running the package's tests before fuzzing FuzzX, as go test -fuzz does (3s so far)"},
			"running the package's tests before fuzzing FuzzX, as go test -fuzz does (3s so far)"},
	} {
		if got := phaseMessage(c.e); got != c.want {
			t.Errorf("phaseMessage(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
}
