package engine

import (
	"encoding/binary"
	"math/bits"
)

// Coverage is kept per edge counter as a byte of bucket bits (the AFL
// scheme): an edge taken 1, 2, 3, 4-7, 8-15, 16-31, 32-127 or 128+ times in
// one execution sets bit 0..7. An input is interesting when it sets a bit the
// global map lacks, so reaching an edge more often than before counts, as in
// a loop running one more time.

var bucketBit = func() (t [256]byte) {
	for c := 1; c < 256; c++ {
		switch {
		case c <= 3:
			t[c] = 1 << (c - 1)
		case c <= 7:
			t[c] = 1 << 3
		case c <= 15:
			t[c] = 1 << 4
		case c <= 31:
			t[c] = 1 << 5
		case c <= 127:
			t[c] = 1 << 6
		default:
			t[c] = 1 << 7
		}
	}
	return t
}()

// hasNewBits reports whether the raw counters in snap set a bucket bit that
// seen lacks. len(seen) must be at least len(snap). It runs after every
// execution over every counter of the binary (the standard library the
// code under test reaches is instrumented too: thousands of counters for a
// small target), of which few are
// set: it skips zero counters 32 at a time and, in a word that has some,
// visits only those.
func hasNewBits(snap, seen []byte) bool {
	le := binary.LittleEndian
	i := 0
	for ; i+32 <= len(snap); i += 32 {
		b := (*[32]byte)(snap[i:])
		w0, w1, w2, w3 := le.Uint64(b[0:]), le.Uint64(b[8:]), le.Uint64(b[16:]), le.Uint64(b[24:])
		if w0|w1|w2|w3 == 0 {
			continue
		}
		s := (*[32]byte)(seen[i:])
		if wordHasNewBits(w0, s[0:8]) || wordHasNewBits(w1, s[8:16]) || wordHasNewBits(w2, s[16:24]) || wordHasNewBits(w3, s[24:32]) {
			return true
		}
	}
	for ; i < len(snap); i++ {
		if bucketBit[snap[i]]&^seen[i] != 0 {
			return true
		}
	}
	return false
}

// wordHasNewBits is hasNewBits for the eight counters of w (little-endian).
func wordHasNewBits(w uint64, seen []byte) bool {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	nonzero := ((w & low7) + low7 | w) & high // the high bit of each nonzero byte
	for nonzero != 0 {
		j := bits.TrailingZeros64(nonzero) / 8
		if bucketBit[byte(w>>(8*j))]&^seen[j] != 0 {
			return true
		}
		nonzero &= nonzero - 1
	}
	return false
}

// bucketize writes the bucket bits of the raw counters in snap to dst.
// Most counters of an execution are zero: it skips them eight at a time.
func bucketize(dst, snap []byte) {
	i := 0
	for ; i+8 <= len(snap); i += 8 {
		if binary.LittleEndian.Uint64(snap[i:]) == 0 {
			binary.LittleEndian.PutUint64(dst[i:], 0)
			continue
		}
		for j := i; j < i+8; j++ {
			dst[j] = bucketBit[snap[j]]
		}
	}
	for ; i < len(snap); i++ {
		dst[i] = bucketBit[snap[i]]
	}
}

// mergeBits ORs the bucket bits of cov into seen and returns how many bits
// were new. len(seen) must be at least len(cov). It runs for every new
// corpus entry over every counter of the binary, of which few are set: it
// works eight counters at a time and skips zero words.
func mergeBits(seen, cov []byte) int {
	le := binary.LittleEndian
	n, i := 0, 0
	for ; i+8 <= len(cov); i += 8 {
		w := le.Uint64(cov[i:])
		if w == 0 {
			continue
		}
		s := le.Uint64(seen[i:])
		if nb := w &^ s; nb != 0 {
			n += bits.OnesCount64(nb)
			le.PutUint64(seen[i:], s|w)
		}
	}
	for ; i < len(cov); i++ {
		if nb := cov[i] &^ seen[i]; nb != 0 {
			n += bits.OnesCount8(nb)
			seen[i] |= cov[i]
		}
	}
	return n
}

// covers reports whether every bucket bit of want is also set in got.
func covers(got, want []byte) bool {
	for i, b := range want {
		if b&^got[i] != 0 {
			return false
		}
	}
	return true
}

// unstableBits returns the bucket bits of first, an input's coverage as a
// fuzz call saw it, that its second execution at once (again) did not
// reach and the coverage known (seen) lacks; nil if there are none. Such bits come from
// state the first execution changed: a cache filled, a value interned
// (net/netip interns every IPv6 zone through package unique, whose insert
// path runs only the first time a zone is seen), a sync.Once. Left alone,
// every fuzz call meeting them finds "new coverage" the second execution
// does not confirm; the coordinator gives them to the workers as seen
// instead (AFL calls such bits variable), and never counts them as reached.
func unstableBits(first, again, seen []byte) []byte {
	var out []byte
	for i, b := range first {
		if nb := b &^ again[i] &^ seen[i]; nb != 0 {
			if out == nil {
				out = make([]byte, len(first))
			}
			out[i] = nb
		}
	}
	return out
}

// countEdges returns how many edges have any bucket bit set.
func countEdges(cov []byte) int {
	n := 0
	for _, b := range cov {
		if b != 0 {
			n++
		}
	}
	return n
}
