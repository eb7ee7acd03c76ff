// Package procs: fuzz tests that look at the processors a worker runs on
// (engine/procs.go). Each fails where the worker's GOMAXPROCS is not what it
// should be, and passes under go test.
package procs

import (
	"runtime/metrics"
	"testing"
)

// FuzzOneProcessor starts no goroutines: fuzzbox's worker runs it on one
// processor, where it fails (an internal error: go test passes the input).
func FuzzOneProcessor(f *testing.F) {
	f.Add([]byte("x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if gomaxprocs() == 1 {
			t.Fatal("fuzzbox-e2e: on one processor")
		}
	})
}

// gomaxprocs returns GOMAXPROCS without calling runtime.GOMAXPROCS, whose
// callers fuzzbox's workers leave on every processor.
func gomaxprocs() int {
	s := []metrics.Sample{{Name: "/sched/gomaxprocs:threads"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}
