package targets

import (
	"os"
	"sync"
	"testing"
)

// Each target fails when the first byte of its input is a given letter, so
// the engine finds it in a few executions and minimizes it to that byte.

func FuzzPanic(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'P' {
			panic("fuzzbox-e2e: boom")
		}
	})
}

func FuzzTFatal(f *testing.F) {
	f.Add("seed")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 0 && s[0] == 'F' {
			t.Fatal("fuzzbox-e2e: t.Fatal reached")
		}
	})
}

func FuzzMapWrites(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != 'M' {
			return
		}
		m := map[int]int{}
		done := make(chan bool)
		for g := range 4 {
			go func() {
				for i := 0; ; i++ {
					m[i%64+g] = i // concurrent map writes: a runtime fatal error
				}
			}()
		}
		<-done
	})
}

func recurse(n int) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	return recurse(n+1) + int(pad[0])
}

func FuzzStackOverflow(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'S' {
			recurse(0)
		}
	})
}

func FuzzExit(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'E' {
			os.Exit(3)
		}
	})
}

var spin int

func FuzzHang(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'H' {
			for {
				spin++
			}
		}
	})
}

// FuzzDeadlock deadlocks: the fuzz function waits on a channel that a
// goroutine it started would send to after taking a lock it holds.
func FuzzDeadlock(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'D' {
			var mu sync.Mutex
			mu.Lock()
			done := make(chan bool)
			go func() {
				mu.Lock()
				done <- true
			}()
			<-done
		}
	})
}

// FuzzBlockedRun runs a subtest that never ends.
func FuzzBlockedRun(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'R' {
			t.Run("wait", func(t *testing.T) { select {} })
		}
	})
}

var sink []byte

// FuzzOOM allocates n bytes, n read from the input, and keeps them.
func FuzzOOM(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 5 || b[0] != 'A' {
			return
		}
		n := uint64(b[1]) | uint64(b[2])<<8 | uint64(b[3])<<16 | uint64(b[4])<<24
		if n >= 1<<30 {
			sink = make([]byte, n*4) // 4 GB and more
			sink[0] = 1
		}
	})
}

// FuzzGrow touches 1.5 GiB for an input starting "G!": less than
// -rss_limit_mb's default, more than the cgroup of TestCgroupOOM allows.
func FuzzGrow(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 2 || b[0] != 'G' || b[1] != '!' {
			return
		}
		sink = make([]byte, 3<<29)
		for i := 0; i < len(sink); i += 4096 {
			sink[i] = 1
		}
	})
}

// FuzzTwoBugs has two distinct bugs, for -keepgoing.
func FuzzTwoBugs(f *testing.F) {
	f.Add("seed")
	f.Fuzz(func(t *testing.T, s string) {
		switch {
		case len(s) > 0 && s[0] == 'A':
			panic("fuzzbox-e2e: bug A")
		case len(s) > 0 && s[0] == 'B':
			t.Fatal("fuzzbox-e2e: bug B")
		}
	})
}

// FuzzNever never fails.
func FuzzNever(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 3 && b[0] == 'x' {
			_ = b[1] + b[2]
		}
	})
}

// flakyRuns counts the executions of FuzzFlaky in this process.
var flakyRuns int

// FuzzFlaky fails only in a process that has run many inputs: its
// failures do not fail again in a fresh worker (or under go test -run).
func FuzzFlaky(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		flakyRuns++
		if flakyRuns > 200 {
			t.Fatalf("fuzzbox-e2e: flaky after %d runs", flakyRuns)
		}
	})
}

// FuzzModify writes into its input, which the testing package forbids.
func FuzzModify(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 {
			b[0] = 'x'
		}
	})
}

// FuzzNearBugs has two bugs behind an 'X': inputs of an odd length of 5 or
// more index out of range in parseOdd, inputs of exactly 4 bytes
// dereference nil in parseEven. Mutants of the 9-byte seed meet the first;
// shrinking its input one byte at a time meets the second.
func FuzzNearBugs(f *testing.F) {
	f.Add([]byte("abcdefghi"))
	f.Fuzz(func(t *testing.T, b []byte) {
		switch {
		case len(b) < 4 || b[0] != 'X':
		case len(b)%2 == 1:
			parseOdd(b)
		case len(b) == 4:
			parseEven(b)
		}
	})
}

func parseOdd(b []byte) byte {
	i := len(b) - 5
	return b[i-1] // index out of range [-1] at 5 bytes
}

type node struct{ next *node }

func parseEven(b []byte) *node {
	var n *node
	return n.next // nil dereference
}

// FuzzShrinkMeetsHang panics on inputs of 6 bytes or more that start with
// 'X'; on those of 4 or 5 bytes it loops forever. Mutants of the 10-byte
// seed meet the panic; shrinking its input meets the hang, which kills the
// worker: minimization must go on past it.
func FuzzShrinkMeetsHang(f *testing.F) {
	f.Add([]byte("abcdefghij"))
	f.Fuzz(func(t *testing.T, b []byte) {
		switch {
		case len(b) < 4 || b[0] != 'X':
		case len(b) >= 6:
			panic("an X input of 6 bytes or more")
		default:
			for {
				spin++
			}
		}
	})
}

// FuzzLeak leaks a goroutine: on inputs starting with 'L' the fuzz function
// returns without receiving the result a goroutine it started sends on an
// unbuffered channel, which then stays blocked for ever.
func FuzzLeak(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		result := make(chan int)
		go func() { result <- len(b) }()
		if len(b) > 0 && b[0] == 'L' {
			return
		}
		<-result
	})
}
