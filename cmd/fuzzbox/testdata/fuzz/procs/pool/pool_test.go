// Package pool starts a goroutine at initialization that serves every
// input of its fuzz test, as a worker pool does.
package pool

import (
	"runtime/metrics"
	"testing"
)

var work = make(chan func())

func init() {
	go func() {
		for fn := range work {
			fn()
		}
	}()
}

// FuzzPool fails if the pool's goroutine runs on one processor: a worker
// must keep the default GOMAXPROCS for code whose goroutines run beside
// every input.
func FuzzPool(f *testing.F) {
	f.Add([]byte("x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		done := make(chan int)
		work <- func() { done <- gomaxprocs() }
		if <-done == 1 {
			t.Fatal("fuzzbox-e2e: the pool runs on one processor")
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
