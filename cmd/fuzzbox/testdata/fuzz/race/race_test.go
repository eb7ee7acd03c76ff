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
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				shared++ // unsynchronized write: a data race
			}()
		}
		wg.Wait()
	})
}
