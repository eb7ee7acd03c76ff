// Package reads asks how many processors it has, as code with a parallel
// path for several does.
package reads

import (
	"runtime"
	"testing"
)

// FuzzReads fails on one processor: a worker must keep the default
// GOMAXPROCS for code that calls runtime.GOMAXPROCS, which may take
// another path with one than go test takes with several.
func FuzzReads(f *testing.F) {
	f.Add([]byte("x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if runtime.GOMAXPROCS(0) == 1 {
			t.Fatal("fuzzbox-e2e: runtime.GOMAXPROCS says one processor")
		}
	})
}
