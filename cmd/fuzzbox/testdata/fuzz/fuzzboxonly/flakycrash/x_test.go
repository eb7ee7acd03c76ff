package flakycrash

import (
	"os"
	"testing"
	"time"
)

// TestCrashesOnce crashes the binary the first time it runs in this
// directory, from a goroutine of its own that is no test's (as pion's
// tests' watchdog, test.TimeOut, panics when a test runs long on a loaded
// machine), and passes after: a flaky test whose crash names no test.
func TestCrashesOnce(t *testing.T) {
	if _, err := os.Stat("ran.marker"); err != nil {
		os.WriteFile("ran.marker", nil, 0o666)
		go watchdog()
		time.Sleep(time.Minute)
	}
}

func watchdog() { panic("timeout: the watchdog fired") }

func FuzzAfterFlakyCrash(f *testing.F) {
	f.Add(1)
	f.Fuzz(func(t *testing.T, n int) {})
}
