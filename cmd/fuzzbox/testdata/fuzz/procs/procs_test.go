// Package procs: fuzz tests that look at the processors a worker runs on
// (engine/procs.go). Each fails where the worker's GOMAXPROCS is not what it
// should be, and passes under go test.
package procs

import (
	"runtime"
	"testing"
)

// FuzzOneProcessor starts no goroutines: fuzzbox's worker runs it on one
// processor, where it fails (an internal error: go test passes the input).
func FuzzOneProcessor(f *testing.F) {
	f.Add([]byte("x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if runtime.GOMAXPROCS(0) == 1 {
			t.Fatal("fuzzbox-e2e: on one processor")
		}
	})
}
