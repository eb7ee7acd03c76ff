package race

import (
	"sync"
	"testing"
)

var shared int

func FuzzRace(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != 'R' {
			return
		}
		inTwo(func() { shared++ }) // unsynchronized write: a data race
	})
}

// inTwo runs f in two goroutines at once and waits for both.
func inTwo(f func()) {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	wg.Wait()
}
