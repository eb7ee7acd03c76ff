package realcode

import "testing"

// Code that is right under go test and must stay right in fuzzbox's
// binary, where every comparison calls fuzzbox's comparison hooks.

type pair struct{ key, val int }

// rangeAcross walks a stack array with a range loop whose condition the
// compiler hooks (i < len) while the element pointer lives as a uintptr. It
// changes the next element through the array, so a loop left reading a
// stale copy of the array sees the old value.
//
//go:noinline
func rangeAcross(base int) bool {
	arr := [12]pair{{base, 0}, {base + 1, 0}, {base + 2, 0}, {base + 3, 0}, {base + 4, 0}, {base + 5, 0},
		{base + 6, 0}, {base + 7, 0}, {base + 8, 0}, {base + 9, 0}, {base + 10, 0}, {base + 11, 0}}
	ok := true
	for i, p := range arr[:] {
		if p.val != arr[i].val || p.key != arr[i].key {
			ok = false
		}
		if i+1 < len(arr) {
			arr[i+1].val = 7 * i
		}
	}
	return ok
}

// deep calls rangeAcross depth frames further down the stack.
//
//go:noinline
func deep(depth, base int) bool {
	if depth == 0 {
		return rangeAcross(base)
	}
	return deep(depth-1, base)
}

// TestRangeAcrossStackGrowth calls rangeAcross at every stack depth over
// the first stack sizes of a fresh goroutine, so at some depth the first
// hook of its loop is where the stack must grow. A hook that grew the stack
// there left the loop reading the old stack (go-toml's TestDecodeError).
func TestRangeAcrossStackGrowth(t *testing.T) {
	for round := 0; round < 4; round++ {
		done := make(chan int)
		go func() {
			bad := 0
			for depth := 0; depth < 3000; depth++ {
				if !deep(depth, depth) {
					bad++
				}
			}
			done <- bad
		}()
		if bad := <-done; bad != 0 {
			t.Fatalf("round %d: %d of 3000 range loops read a stale copy of their array", round, bad)
		}
	}
}

func FuzzRealCode(f *testing.F) {
	f.Add(3)
	f.Fuzz(func(t *testing.T, n int) {
		if !deep(n&63, n) {
			t.Fatal("range loop read a stale array")
		}
	})
}
