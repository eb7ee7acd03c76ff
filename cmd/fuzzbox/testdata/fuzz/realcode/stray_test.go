package realcode

import (
	"testing"
	"time"
)

// startLate starts, for an input that begins with "xy", a goroutine that
// panics a little after the call returned: go test -fuzz's worker dies
// while a later input runs, and writes that one, which does not replay.
func startLate(b []byte) {
	if len(b) > 2 && b[0] == 'x' && b[1] == 'y' {
		go func() {
			time.Sleep(5 * time.Millisecond)
			panic("late panic")
		}()
	}
}

func FuzzStray(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) { startLate(b) })
}
