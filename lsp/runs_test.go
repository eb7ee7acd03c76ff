package lsp

import (
	"slices"
	"testing"
	"time"
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
