package engine

import (
	"bytes"
	"math/bits"
	"testing"
)

func TestBucketBit(t *testing.T) {
	want := map[int]byte{
		0: 0, 1: 1 << 0, 2: 1 << 1, 3: 1 << 2, 4: 1 << 3, 7: 1 << 3, 8: 1 << 4, 15: 1 << 4,
		16: 1 << 5, 31: 1 << 5, 32: 1 << 6, 127: 1 << 6, 128: 1 << 7, 255: 1 << 7,
	}
	for c, b := range want {
		if got := bucketBit[c]; got != b {
			t.Errorf("bucketBit[%d] = %08b, want %08b", c, got, b)
		}
	}
	// Buckets are monotonic: a higher count never maps to a lower bit.
	for c := 2; c < 256; c++ {
		if bucketBit[c] < bucketBit[c-1] {
			t.Errorf("bucketBit[%d] = %08b < bucketBit[%d] = %08b", c, bucketBit[c], c-1, bucketBit[c-1])
		}
		if n := bucketBit[c]; n&(n-1) != 0 {
			t.Errorf("bucketBit[%d] = %08b has more than one bit", c, n)
		}
	}
}

func TestHasNewBits(t *testing.T) {
	tests := []struct {
		name       string
		snap, seen []byte
		want       bool
	}{
		{"empty", nil, nil, false},
		{"all zero", make([]byte, 16), make([]byte, 16), false},
		{"new edge in first word", counters(13, map[int]byte{3: 1}), make([]byte, 13), true},
		{"new edge in the tail", counters(13, map[int]byte{12: 1}), make([]byte, 13), true},
		{"tail only, length 5", counters(5, map[int]byte{4: 200}), make([]byte, 5), true},
		{"known edge", counters(13, map[int]byte{12: 1}), counters(13, map[int]byte{12: 1}), false},
		{"known bucket", counters(9, map[int]byte{8: 5}), counters(9, map[int]byte{8: 1 << 3}), false},
		{"higher bucket", counters(9, map[int]byte{8: 5}), counters(9, map[int]byte{8: 1 | 2 | 4}), true},
		{"lower bucket", counters(9, map[int]byte{0: 1}), counters(9, map[int]byte{0: 1 << 7}), true},
		{"seen longer than snap", counters(3, map[int]byte{2: 1}), counters(8, map[int]byte{2: 1}), false},
		{"second word", counters(24, map[int]byte{17: 40}), counters(24, map[int]byte{17: 1 << 5}), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hasNewBits(tt.snap, tt.seen); got != tt.want {
				t.Errorf("hasNewBits(%v, %v) = %v, want %v", tt.snap, tt.seen, got, tt.want)
			}
		})
	}
}

// counters returns n counters, zero except for set.
func counters(n int, set map[int]byte) []byte {
	b := make([]byte, n)
	for i, c := range set {
		b[i] = c
	}
	return b
}

func TestBucketizeMergeCovers(t *testing.T) {
	snap := counters(11, map[int]byte{0: 1, 7: 9, 10: 255})
	cov := make([]byte, len(snap))
	bucketize(cov, snap)
	wantCov := counters(11, map[int]byte{0: 1, 7: 1 << 4, 10: 1 << 7})
	if string(cov) != string(wantCov) {
		t.Fatalf("bucketize = %v, want %v", cov, wantCov)
	}
	seen := counters(11, map[int]byte{7: 1, 9: 4})
	if n := mergeBits(seen, cov); n != 3 {
		t.Errorf("mergeBits added %d bits, want 3", n)
	}
	wantSeen := counters(11, map[int]byte{0: 1, 7: 1 | 1<<4, 9: 4, 10: 1 << 7})
	if string(seen) != string(wantSeen) {
		t.Errorf("after mergeBits seen = %v, want %v", seen, wantSeen)
	}
	if n := mergeBits(seen, cov); n != 0 {
		t.Errorf("merging the same coverage again added %d bits", n)
	}
	if hasNewBits(snap, seen) {
		t.Error("hasNewBits reports bits just merged")
	}
	if !covers(seen, cov) {
		t.Error("covers(seen, cov) = false after merging cov")
	}
	if covers(cov, seen) {
		t.Error("covers(cov, seen) = true though seen has more bits")
	}
	if !covers(cov, make([]byte, len(cov))) {
		t.Error("covers(x, nothing) = false")
	}
	if got := countEdges(seen); got != 4 {
		t.Errorf("countEdges = %d, want 4", got)
	}
	if got := countEdges(nil); got != 0 {
		t.Errorf("countEdges(nil) = %d", got)
	}
}

func TestMergeBitsCountsEachBit(t *testing.T) {
	seen := []byte{0, 0b1010, 0xff}
	if n := mergeBits(seen, []byte{0b11, 0b1111, 0xff}); n != 4 {
		t.Errorf("mergeBits = %d, want 4 (2 + 2 + 0)", n)
	}
}

// FuzzCoverageWords: the word-at-a-time bucketize, hasNewBits, covers
// and mergeBits agree with their byte-by-byte definitions on any counters
// and any length (sparse inputs take the skip-zero-words path).
func FuzzCoverageWords(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 200, 1}, []byte{0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 1})
	f.Add([]byte{1}, []byte{})
	f.Fuzz(func(t *testing.T, snap, seen []byte) {
		seen = append(seen, make([]byte, max(0, len(snap)-len(seen)))...)[:len(snap)]
		buckets := make([]byte, len(snap))
		bucketize(buckets, snap)
		newBits, coversSeen := false, true
		for i, c := range snap {
			if buckets[i] != bucketBit[c] {
				t.Fatalf("bucketize: counter %d = %d gives %#x, want %#x", i, c, buckets[i], bucketBit[c])
			}
			newBits = newBits || bucketBit[c]&^seen[i] != 0
			coversSeen = coversSeen && seen[i]&^bucketBit[c] == 0
		}
		if got := hasNewBits(snap, seen); got != newBits {
			t.Errorf("hasNewBits = %v, want %v", got, newBits)
		}
		if got := covers(buckets, seen); got != coversSeen {
			t.Errorf("covers = %v, want %v", got, coversSeen)
		}
		merged, wantN := append([]byte(nil), seen...), 0
		for i, b := range buckets {
			wantN += bits.OnesCount8(b &^ seen[i])
			seen[i] |= b
		}
		if n := mergeBits(merged, buckets); n != wantN || !bytes.Equal(merged, seen) {
			t.Errorf("mergeBits = %d bits, seen %x; want %d, %x", n, merged, wantN, seen)
		}
	})
}

func TestUnstableBits(t *testing.T) {
	first := []byte{0b0011, 0b0100, 0, 0b1000}
	again := []byte{0b0001, 0b0100, 0, 0}
	global := []byte{0, 0, 0, 0b1000}
	got := unstableBits(first, again, global)
	if want := []byte{0b0010, 0, 0, 0}; !bytes.Equal(got, want) {
		t.Errorf("unstableBits = %08b, want %08b", got, want)
	}
	if got := unstableBits(again, first, global); got != nil {
		t.Errorf("unstableBits of a re-run reaching more = %08b, want nil", got)
	}
}
