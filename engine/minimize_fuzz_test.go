package engine

import (
	"bytes"
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

// Keep predicates of FuzzShrink (mode % 4).
const (
	keepHash     = iota // deterministic: a hash of the candidate and the seed
	keepRandom          // a random answer each call
	keepSize            // the candidate is at least seed%64 in valuesSize
	keepScribble        // keepHash, then overwrite the candidate's []byte values, as a fuzz function may
)

// FuzzShrink minimizes arbitrary inputs with arbitrary keep predicates and
// call budgets and checks that the result is the original (nothing was
// kept) or exactly the last candidate keep accepted, as keep saw it; that
// every candidate has the input's shape and none accepted grows the input;
// and that the input itself is left alone.
func FuzzShrink(f *testing.F) {
	f.Add(genValues([]byte("\x01\x02abc\x03"), "héllo", true, int8(-100), uint64(1<<63), 1.5, float32(-0.25)),
		uint64(1), uint8(keepHash), uint16(500))
	f.Add(genValues(int64(-1<<63), int32(-5), uint(12345)), uint64(7), uint8(keepRandom), uint16(0))
	f.Add(genValues([]byte("0123456789abcdef"), "xyz"), uint64(10), uint8(keepSize), uint16(300))
	f.Add(genValues([]byte("\xff\xfe\xfd"), "ab", 2.5), uint64(3), uint8(keepScribble), uint16(100))
	f.Fuzz(func(t *testing.T, valsIn []byte, seed uint64, mode uint8, budget uint16) {
		vals := (&fuzzReader{valsIn}).values()
		orig := appendValues(nil, vals)
		s := &shrinkCheck{t: t, vals: vals, pred: keepPredicate(mode%4, seed), limit: 1 + int(budget%4096)}
		s.bestSize = valuesSize(vals)
		var best []any
		var smaller bool
		if mode&4 != 0 {
			best, smaller = shrink(vals, s.keep) // budget kept by keep alone
		} else {
			best, smaller = shrinkUntil(vals, s.keep, func() bool { return s.calls >= s.limit })
		}
		if !bytes.Equal(appendValues(nil, vals), orig) {
			t.Fatal("shrink changed its input")
		}
		want := orig
		if s.accepted != nil {
			want = s.accepted
		}
		if smaller != (s.accepted != nil) || !bytes.Equal(appendValues(nil, best), want) {
			t.Fatalf("shrink returned %#v (smaller %v), want the encoding %x of the last accepted candidate or the input",
				best, smaller, want)
		}
	})
}

// shrinkCheck is the keep function of FuzzShrink and what it saw.
type shrinkCheck struct {
	t        *testing.T
	vals     []any
	pred     func([]any) (keep, scribble bool)
	limit    int    // calls after which keep refuses, as the worker's budget does
	calls    int    // calls to keep
	accepted []byte // encoding of the last accepted candidate, when it was called
	bestSize int    // valuesSize of the last accepted candidate (or the input)
}

func (s *shrinkCheck) keep(cand []any) bool {
	s.calls++
	if !sameShape(s.t, "shrink candidate", cand, s.vals) {
		s.t.FailNow()
	}
	if s.calls > s.limit {
		return false
	}
	enc := appendValues(nil, cand)
	ok, scribble := s.pred(cand)
	if scribble {
		for _, v := range cand {
			if b, isBytes := v.([]byte); isBytes {
				for i := range b {
					b[i] = 0xee
				}
			}
		}
	}
	if !ok {
		return false
	}
	if n := valuesSize(cand); n > s.bestSize {
		s.t.Fatalf("shrink proposed a larger input (size %d, best so far %d) and it was kept", n, s.bestSize)
	}
	s.accepted, s.bestSize = enc, valuesSize(cand)
	return true
}

func keepPredicate(mode uint8, seed uint64) func([]any) (bool, bool) {
	r := rand.New(rand.NewPCG(seed, 1))
	hashKeep := func(cand []any) bool {
		h := fnv.New64a()
		h.Write(appendValues(nil, cand))
		return (h.Sum64()^seed)%uint64(2+seed%5) == 0
	}
	switch mode {
	case keepRandom:
		return func([]any) (bool, bool) { return r.IntN(3) == 0, false }
	case keepSize:
		return func(c []any) (bool, bool) { return valuesSize(c) >= int(seed%64), false }
	case keepScribble:
		return func(c []any) (bool, bool) { return hashKeep(c), true }
	}
	return func(c []any) (bool, bool) { return hashKeep(c), false }
}
