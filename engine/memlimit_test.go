package engine

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	tuneGC(0)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("no memory limit: GOGC = %d, want the default", got)
	}
	tuneGC(2048)
	if got := debug.SetGCPercent(100); got != workerGCPercent {
		t.Errorf("GOGC = %d, want %d", got, workerGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("memory limit = %d, want 1 GiB (half of 2048 MiB)", got)
	}
	t.Setenv("GOGC", "50")
	tuneGC(2048)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("the user's GOGC: GOGC = %d, want it untouched", got)
	}
}
