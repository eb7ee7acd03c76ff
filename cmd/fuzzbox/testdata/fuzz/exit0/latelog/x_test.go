package latelog

import (
	"testing"
	"time"
)

// TestLogsLate starts a goroutine that logs through t 50 ms after the test
// returned. When all tests are done, testing panics at that ("Log in
// goroutine after TestLogsLate has completed"), in a process still alive
// then, as go test -fuzz's is while it fuzzes; go test -run=TestLogsLate
// exits first and passes.
func TestLogsLate(t *testing.T) {
	ctx := t.Context()
	go func() {
		<-ctx.Done()
		time.Sleep(50 * time.Millisecond)
		t.Log("shutting down")
	}()
}

func FuzzAfterLateLog(f *testing.F) {
	f.Add(1)
	f.Fuzz(func(t *testing.T, n int) {})
}
