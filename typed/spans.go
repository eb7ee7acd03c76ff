package typed

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"sync"
)

// Mutation through byte ranges. The engine calls Mutate many times with the
// same base input (one fuzz call); decoding it into a tree of Go values and
// encoding each mutant again costs microseconds, most of it in marshaling
// methods and allocation. The canonical encoding has no byte-length prefix
// above a value (a slice counts elements, a struct is its fields in order),
// so every value sits in one byte range of it, and changing a value is
// replacing its range: a number is patched in place, an element is
// inserted, removed or moved by copying ranges and rewriting the slice's
// count. The base's canonical encoding and the ranges of its values (its
// layout) are computed once per base; a mutant is one copy of the encoding
// with one to three edits, and only changes that build a fresh value (a
// pointer made non-nil, a new element) encode one. Maps go through the tree
// (mutate.go): their entries are sorted by their keys' encodings.

// A span is where one value of the arguments is in a canonical encoding.
type span struct {
	at   int // first byte
	body int // first byte after a count, length or nil prefix (at for values without one)
	end  int
	c    *codec
	up   int32 // the enclosing span, or -1
	// depth is the number of pointers, slices and maps above the value:
	// the encoder's depth when it wrote it.
	depth int32
}

// spanRecorder collects spans as an encoder writes.
type spanRecorder struct {
	spans    []span
	cur      int32
	full     bool // more than maxNodes values: the layout is not used
	maxDepth int32
}

func (s *spanRecorder) record(e *encoder, c *codec, v reflect.Value) error {
	if len(s.spans) >= maxNodes {
		s.full = true
		return e.value(c, v)
	}
	i := int32(len(s.spans))
	s.spans = append(s.spans, span{at: len(e.b), c: c, up: s.cur, depth: int32(e.depth)})
	s.maxDepth = max(s.maxDepth, int32(e.depth))
	up := s.cur
	s.cur = i
	err := e.value(c, v)
	s.cur = up
	sp := &s.spans[i]
	sp.end = len(e.b)
	sp.body = sp.at
	switch c.kind {
	case kString, kBytes, kSlice, kMap, kBinary, kText:
		_, n := binary.Uvarint(e.b[sp.at:])
		sp.body += n
	case kPtr:
		sp.body++
	}
	return err
}

// layout is a base input's canonical encoding and the spans of its values.
type layout struct {
	base     []byte // the input as Mutate got it
	canon    []byte
	spans    []span
	maxDepth int32
	// The spans hints look at (numbers and slices, whose counts are
	// compared, with their values and counts; strings and byte slices)
	// and those pick favours (slices, maps and pointers).
	numbers, strings, indirect []int32
	numberVals                 []uint64
	leaves                     []int32 // bools and numbers
}

// layoutCache keeps the last base's layout and those of splice entries.
type layoutCache struct {
	mu     sync.Mutex
	last   *layout
	others map[string]*layout
}

// maxCachedLayouts bounds the splice entries' layouts kept.
const maxCachedLayouts = 256

// layoutOf returns data's layout, from the cache when data is the last
// base, or nil when data does not encode again or has too many values.
func (h *harness) layoutOf(data []byte) *layout {
	h.layouts.mu.Lock()
	defer h.layouts.mu.Unlock()
	if l := h.layouts.last; l != nil && bytes.Equal(l.base, data) {
		return l
	}
	l := h.newLayout(data)
	if l != nil {
		h.layouts.last = l
	}
	return l
}

// spliceLayout returns the layout of a splice entry, cached by content.
func (h *harness) spliceLayout(data []byte) *layout {
	h.layouts.mu.Lock()
	defer h.layouts.mu.Unlock()
	if l, ok := h.layouts.others[string(data)]; ok {
		return l
	}
	if len(h.layouts.others) >= maxCachedLayouts || h.layouts.others == nil {
		h.layouts.others = map[string]*layout{}
	}
	l := h.newLayout(data)
	h.layouts.others[string(data)] = l
	return l
}

func (h *harness) newLayout(data []byte) *layout {
	rec := &spanRecorder{cur: -1}
	e := encoder{b: make([]byte, 0, len(data)+16), spans: rec}
	if e.values(h.codecs, h.decode(data)) != nil || rec.full {
		return nil
	}
	l := &layout{base: append([]byte(nil), data...), canon: e.b, spans: rec.spans, maxDepth: rec.maxDepth}
	for i, sp := range l.spans {
		if sp.c.kind <= kComplex {
			l.leaves = append(l.leaves, int32(i))
		}
		switch sp.c.kind {
		case kInt, kUint:
			l.numbers = append(l.numbers, int32(i))
			l.numberVals = append(l.numberVals, readLE(l.canon[sp.at:sp.end]))
		case kString, kBytes:
			l.strings = append(l.strings, int32(i))
		case kSlice:
			l.numbers = append(l.numbers, int32(i))
			l.numberVals = append(l.numberVals, uint64(l.count(i))) // nil: the largest uint64
			l.indirect = append(l.indirect, int32(i))
		case kMap, kPtr:
			l.indirect = append(l.indirect, int32(i))
		}
	}
	return l
}

// count returns the element count of the slice or map at span i, -1 for nil.
func (l *layout) count(i int) int {
	n, _ := binary.Uvarint(l.canon[l.spans[i].at:])
	return int(n) - 1
}

// contents returns the bytes of a string, byte slice or marshaled value.
func (l *layout) contents(sp span) []byte {
	return l.canon[sp.body:sp.end]
}

// elems returns the spans of slice i's elements.
func (l *layout) elems(i int) []int {
	var out []int
	for j := i + 1; j < len(l.spans) && l.spans[j].at < l.spans[i].end; j++ {
		if l.spans[j].up == int32(i) {
			out = append(out, j)
		}
	}
	return out
}

// subtree returns the spans inside span i, i included: they follow it.
func (l *layout) subtree(i int) (from, to int) {
	to = i + 1
	for to < len(l.spans) && l.spans[to].at < l.spans[i].end {
		to++
	}
	return i, to
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
