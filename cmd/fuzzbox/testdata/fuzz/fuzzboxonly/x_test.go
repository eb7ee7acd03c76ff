package fuzzboxonly

import (
	"flag"
	"os"
	"sync"
	"testing"
)

// Tests that fail only inside fuzzbox's fuzzing binary (they look for its
// -fuzzbox.timeout flag), standing for a fuzzbox bug that breaks a test go
// test passes: fuzzbox must not blame the package for them.

func inFuzzbox() bool { return flag.Lookup("fuzzbox.timeout") != nil }

func TestFine(t *testing.T) {}

// TestFailsOnlyInFuzzbox fails under go test too when FUZZBOX_STOCK_TEST
// is "fail": a test of the driver's Config.StockEnv sets it.
func TestFailsOnlyInFuzzbox(t *testing.T) {
	if inFuzzbox() || os.Getenv("FUZZBOX_STOCK_TEST") == "fail" {
		t.Fatal("fails only in fuzzbox's binary")
	}
}

func TestCrashesOnlyInFuzzbox(t *testing.T) {
	if inFuzzbox() {
		var mu sync.Mutex
		mu.Unlock() // fatal error: sync: unlock of unlocked mutex
	}
}

func FuzzFine(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {})
}

// FuzzPanicsOnlyInFuzzbox fails on an input starting with 'X' only in
// fuzzbox's binary: go test passes the reproducer, so it is not the code's.
func FuzzPanicsOnlyInFuzzbox(f *testing.F) {
	f.Add([]byte("X marks it"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if inFuzzbox() && len(b) > 0 && b[0] == 'X' {
			panic("only in fuzzbox's binary")
		}
	})
}
