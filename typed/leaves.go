package typed

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/fuzzbox/fuzzbox/internal/typedhook"
)

// Fast leaf mutations. The engine calls Mutate many times with the same
// base input (one fuzz call); decoding it into a tree and encoding the
// mutant each time costs microseconds. A bool or number is written at a
// fixed place of the canonical encoding, in fixed size, so changing one is
// a copy of the encoding and a few bytes patched: half of Mutate's calls
// do that when the base has such leaves (kept from the last base seen).

// A leaf is where a bool or number (not a map key's) is in an encoding.
type leaf struct {
	at int
	c  *codec
}

// layout is a base input's canonical encoding and its leaves.
type layout struct {
	base   []byte // the input as Mutate got it
	canon  []byte
	leaves []leaf
}

type layoutCache struct {
	mu   sync.Mutex
	last *layout
}

// layoutOf returns data's layout, from the cache when data is the last
// base, or nil when data does not encode again.
func (h *harness) layoutOf(data []byte) *layout {
	h.layouts.mu.Lock()
	defer h.layouts.mu.Unlock()
	if l := h.layouts.last; l != nil && bytes.Equal(l.base, data) {
		return l
	}
	l := &layout{base: append([]byte(nil), data...)}
	e := encoder{b: make([]byte, 0, len(data)+16), leaves: &l.leaves}
	if e.values(h.codecs, h.decode(data)) != nil {
		return nil
	}
	l.canon = e.b
	h.layouts.last = l
	return l
}

// mutateLeaf returns a copy of l's canonical encoding with one leaf
// changed, or nil.
func (l *layout) mutateLeaf(r *rand.Rand, hints *typedhook.Hints) []byte {
	if len(l.leaves) == 0 {
		return nil
	}
	lf := l.leaves[r.IntN(len(l.leaves))]
	out := append([]byte(nil), l.canon...)
	m := mutation{r: r, hints: hints}
	p := out[lf.at : lf.at+lf.c.size]
	switch lf.c.kind {
	case kBool:
		p[0] ^= 1
	case kInt, kUint:
		x := m.integer(readLE(p), lf.c.size)
		writeLE(p, x)
	case kFloat:
		if lf.c.size == 4 {
			f := m.float(float64(math.Float32frombits(binary.LittleEndian.Uint32(p))))
			binary.LittleEndian.PutUint32(p, math.Float32bits(float32(f)))
		} else {
			f := m.float(math.Float64frombits(binary.LittleEndian.Uint64(p)))
			binary.LittleEndian.PutUint64(p, math.Float64bits(f))
		}
	}
	if bytes.Equal(out, l.canon) {
		return nil
	}
	return out
}

func readLE(p []byte) uint64 {
	var x uint64
	for i, c := range p {
		x |= uint64(c) << (8 * i)
	}
	return x
}

func writeLE(p []byte, x uint64) {
	for i := range p {
		p[i] = byte(x >> (8 * i))
	}
}
