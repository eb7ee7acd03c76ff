package engine

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkLeakHotPath measures what leak detection adds to an execution
// that leaves no goroutine behind (workerServer.exec): two reads of
// runtime.NumGoroutine and one of the clock, and time.Since.
func BenchmarkLeakHotPath(b *testing.B) {
	w := &workerServer{leaks: &leakChecker{}}
	n := 0
	for b.Loop() {
		goroutines, start := w.goroutines()
		if runtime.NumGoroutine() > goroutines {
			n++
			_ = time.Since(start)
		}
	}
	if n > 0 {
		b.Logf("%d of %d iterations saw more goroutines", n, b.N)
	}
}
