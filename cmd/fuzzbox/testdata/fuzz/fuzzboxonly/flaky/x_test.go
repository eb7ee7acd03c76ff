package flaky

import (
	"os"
	"testing"
)

// TestFailsOnce fails the first time it runs in this directory and passes
// after: a flaky test (as a test timing a goroutine on a loaded machine is),
// which is nobody's bug to report.
func TestFailsOnce(t *testing.T) {
	if _, err := os.Stat("ran.marker"); err != nil {
		os.WriteFile("ran.marker", nil, 0o666)
		t.Fatal("failing the first time only")
	}
}

// TestPasses counts its runs in passes.marker: it passes in the first start,
// where TestFailsOnce fails, so the start after that does not run it again.
func TestPasses(t *testing.T) {
	f, err := os.OpenFile("passes.marker", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("ran\n")
	f.Close()
}

func FuzzAfterFlaky(f *testing.F) {
	f.Add(1)
	f.Fuzz(func(t *testing.T, n int) {})
}
