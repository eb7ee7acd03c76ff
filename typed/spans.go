package typed

import (
	"bytes"
	"encoding/binary"
	"math"
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

// An edit replaces canon[at:end] with b.
type edit struct {
	at, end int
	b       []byte
}

func (a edit) conflicts(b edit) bool {
	return a.at == b.at || a.at < b.end && b.at < a.end
}

// spanMutation is one mutant in the making: edits of a layout's encoding
// that do not overlap, applied together.
type spanMutation struct {
	mutation
	h     *harness
	l     *layout
	edits []edit
	buf   [6]edit // edits' first backing array
	// tree is set when a step needs the tree (a map): the mutant is then
	// made there.
	tree bool
}

// mutate returns a mutant of l's encoding, or nil, and false when the
// tree must make it.
func (l *layout) mutate(s *spanMutation) ([]byte, bool) {
	if len(l.spans) == 0 {
		return nil, false
	}
	if len(l.leaves) > 0 && s.r.IntN(2) == 0 {
		// Half the mutants change one bool or number: what most
		// comparisons wait for, at the cost of a copy.
		sp := l.spans[l.leaves[s.r.IntN(len(l.leaves))]]
		s.add(edit{sp.at, sp.end, s.leaf(sp, l.canon[sp.at:sp.end])})
		return s.apply(), true
	}
	steps := 1 + s.r.IntN(3)
	for try := 0; try < 8 && (try < steps || len(s.edits) == 0); try++ {
		s.step()
		if s.tree {
			if len(s.edits) == 0 {
				return nil, false
			}
			break
		}
	}
	if len(s.edits) == 0 {
		return nil, true
	}
	return s.apply(), true
}

// add records edits made by one step, unless one of them overlaps an
// earlier step's.
func (s *spanMutation) add(edits ...edit) bool {
	for _, e := range edits {
		for _, o := range s.edits {
			if e.conflicts(o) {
				return false
			}
		}
	}
	s.edits = append(s.edits, edits...)
	return true
}

// apply returns the layout's encoding with the edits made.
func (s *spanMutation) apply() []byte {
	// Few edits: a sort by insertion.
	for i := 1; i < len(s.edits); i++ {
		for j := i; j > 0 && s.edits[j].at < s.edits[j-1].at; j-- {
			s.edits[j], s.edits[j-1] = s.edits[j-1], s.edits[j]
		}
	}
	n := len(s.l.canon)
	for _, e := range s.edits {
		n += len(e.b) - (e.end - e.at)
	}
	out, prev := make([]byte, 0, n), 0
	for _, e := range s.edits {
		out = append(out, s.l.canon[prev:e.at]...)
		out = append(out, e.b...)
		prev = e.end
	}
	return append(out, s.l.canon[prev:]...)
}

// step makes one change, with the tree's choices (mutation.step).
func (s *spanMutation) step() bool {
	switch k := s.r.IntN(16); {
	case k < 4:
		if s.hint() {
			return true
		}
	case k < 6 && len(s.splice) > 0:
		if s.spliceSpan() {
			return true
		}
	}
	return s.change(s.pick())
}

// pick returns the span to change, as mutation.pick chooses a node.
func (s *spanMutation) pick() int {
	if s.r.IntN(3) == 0 && len(s.l.indirect) > 0 {
		return int(s.l.indirect[s.r.IntN(len(s.l.indirect))])
	}
	return s.r.IntN(len(s.l.spans))
}

// change changes the value at span i by its kind.
func (s *spanMutation) change(i int) bool {
	sp := s.l.spans[i]
	switch sp.c.kind {
	case kMap:
		s.tree = true
		return false
	case kSlice:
		return s.slice(i)
	}
	v := s.replacement(sp, s.l.canon[sp.at:sp.end])
	return v != nil && s.add(edit{sp.at, sp.end, v})
}

// replacement returns a new encoding for the value of span sp, whose
// current encoding is cur, or nil: any kind but slices and maps.
func (s *spanMutation) replacement(sp span, cur []byte) []byte {
	switch sp.c.kind {
	case kPtr:
		if cur[0] == 0 {
			if int(sp.depth) >= maxDepth {
				return nil
			}
			v := s.fresh(sp.c.elem, int(sp.depth)+1)
			if v == nil {
				return nil
			}
			return append([]byte{1}, v...)
		}
		if s.r.IntN(4) == 0 {
			return []byte{0}
		}
		return nil
	case kStruct, kArray:
		if s.r.IntN(4) != 0 {
			return nil // their fields and elements are spans of their own
		}
		return s.fresh(sp.c, int(sp.depth))
	case kBinary, kText:
		return s.marshaledSpan(sp.c, cur[sp.body-sp.at:])
	}
	return s.leaf(sp, cur)
}

// leaf returns the new encoding of a bool, number, string or byte slice
// whose current encoding is cur, or nil for other kinds.
func (s *spanMutation) leaf(sp span, cur []byte) []byte {
	c := sp.c
	switch c.kind {
	case kBool:
		return []byte{cur[0] ^ 1}
	case kInt, kUint:
		out := make([]byte, c.size)
		writeLE(out, s.integer(readLE(cur), c.size))
		return out
	case kFloat:
		return floatBytes(s.float(readFloat(cur)), c.size)
	case kComplex:
		h := c.size / 2
		if s.r.IntN(2) == 0 {
			return append(floatBytes(s.float(readFloat(cur[:h])), h), cur[h:]...)
		}
		return append(append([]byte(nil), cur[:h]...), floatBytes(s.float(readFloat(cur[h:])), h)...)
	case kString:
		return lengthPrefixed(s.bytes(cur[sp.body-sp.at:]), 0)
	case kBytes:
		return lengthPrefixed(s.bytes(cur[sp.body-sp.at:]), 1)
	}
	return nil
}

func readFloat(p []byte) float64 {
	if len(p) == 4 {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(p)))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(p))
}

func floatBytes(f float64, size int) []byte {
	if size == 4 {
		return binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(f)))
	}
	return binary.LittleEndian.AppendUint64(nil, math.Float64bits(f))
}

// lengthPrefixed returns b after its length plus add as a uvarint.
func lengthPrefixed(b []byte, add int) []byte {
	out := binary.AppendUvarint(make([]byte, 0, len(b)+2), uint64(len(b)+add))
	return append(out, b...)
}

// fresh returns the encoding of a fresh value of c's type at depth, or nil.
func (s *spanMutation) fresh(c *codec, depth int) []byte {
	e := encoder{depth: depth}
	if e.encode(c, s.random(c, depth)) != nil {
		return nil
	}
	return e.b
}

// marshaledSpan returns a marshaled value's new encoding: its bytes data
// changed until the unmarshaling method accepts them, up to four tries,
// and marshaled again (the canonical form), or nil.
func (s *spanMutation) marshaledSpan(c *codec, data []byte) []byte {
	for range 4 {
		p := reflect.New(c.t)
		if unmarshal(c, p, s.bytes(data)) != nil {
			continue
		}
		e := encoder{}
		if e.marshaled(c, p.Elem()) != nil {
			return nil
		}
		return e.b
	}
	return nil
}

// header returns the edit that gives slice i the count n.
func (s *spanMutation) header(i, n int) edit {
	sp := s.l.spans[i]
	return edit{sp.at, sp.body, binary.AppendUvarint(nil, uint64(n)+1)}
}

// slice inserts, removes, copies, moves or swaps elements, or makes the
// slice nil or empty (mutation.slice's changes).
func (s *spanMutation) slice(i int) bool {
	sp, l := s.l.spans[i], s.l.count(i)
	isNil := l < 0
	if isNil && s.r.IntN(2) == 0 {
		return s.add(edit{sp.at, sp.end, []byte{1}}) // nil to empty
	}
	l = max(l, 0)
	es := s.l.elems(i)
	if len(es) != l {
		return false // a layout cut short
	}
	pos := func(j int) int { // where element j starts
		if j == l {
			return sp.end
		}
		return s.l.spans[es[j]].at
	}
	elem := func(j int) []byte { e := s.l.spans[es[j]]; return s.l.canon[e.at:e.end] }
	switch k := s.r.IntN(10); {
	case k == 0 || l == 0 && k <= 4: // insert a fresh element
		v := s.fresh(sp.c.elem, int(sp.depth)+1)
		at := s.r.IntN(l + 1)
		return v != nil && s.add(s.header(i, l+1), edit{pos(at), pos(at), v})
	case k <= 3 && l > 0: // insert a copy of one, next to it or anywhere, changed or not
		j := s.r.IntN(l)
		v := append([]byte(nil), elem(j)...)
		if s.r.IntN(3) != 0 {
			v = s.within(es[j], v)
		}
		at := j + 1
		if s.r.IntN(3) == 0 {
			at = s.r.IntN(l + 1)
		}
		return s.add(s.header(i, l+1), edit{pos(at), pos(at), v})
	case k <= 5 && l > 0: // remove one or a few
		j := s.r.IntN(l)
		e := j + 1 + s.r.IntN(min(l-j, 4))
		if s.r.IntN(2) == 0 {
			e = j + 1
		}
		return s.add(s.header(i, l-(e-j)), edit{pos(j), pos(e), nil})
	case k <= 7 && l > 1: // swap two or move one
		order := make([]int, l)
		for j := range order {
			order[j] = j
		}
		a, b := s.r.IntN(l), s.r.IntN(l)
		if k == 6 {
			order[a], order[b] = order[b], order[a]
		} else {
			moved := order[a]
			order = append(order[:a], order[a+1:]...)
			order = append(order[:b], append([]int{moved}, order[b:]...)...)
		}
		var v []byte
		for _, j := range order {
			v = append(v, elem(j)...)
		}
		return s.add(edit{sp.body, sp.end, v})
	case k == 8 && l > 0: // truncate
		j := s.r.IntN(l)
		return s.add(s.header(i, j), edit{pos(j), sp.end, nil})
	}
	if l == 0 && !isNil {
		return s.add(edit{sp.at, sp.end, []byte{0}}) // empty to nil
	}
	return false
}

// within changes v, a copy of span i's encoding, at one place inside it
// (not a slice's or map's elements), up to four tries.
func (s *spanMutation) within(i int, v []byte) []byte {
	from, to := s.l.subtree(i)
	base := s.l.spans[i].at
	for range 4 {
		d := s.l.spans[from+s.r.IntN(to-from)]
		if d.c.kind == kSlice || d.c.kind == kMap {
			continue
		}
		cur := v[d.at-base : d.end-base]
		if nv := s.replacement(d, cur); nv != nil {
			out := append(append([]byte(nil), v[:d.at-base]...), nv...)
			return append(out, v[d.end-base:]...)
		}
	}
	return v
}

// spliceSpan replaces a value with one of the same type from a splice
// entry, or inserts one into a slice of its type (mutation.spliceNode).
func (s *spanMutation) spliceSpan() bool {
	o := s.h.spliceLayout(s.splice[s.r.IntN(len(s.splice))])
	if o == nil || len(o.spans) == 0 {
		return false
	}
	for range 8 {
		i := s.r.IntN(len(s.l.spans))
		n := s.l.spans[i]
		for range 8 {
			os := o.spans[s.r.IntN(len(o.spans))]
			v := o.canon[os.at:os.end]
			switch {
			case os.c.t == n.c.t && fits(o, os, n.depth):
				return s.add(edit{n.at, n.end, v})
			case n.c.kind == kSlice && os.c.t == n.c.elem.t && fits(o, os, n.depth+1):
				l := s.l.count(i)
				es := s.l.elems(i)
				if len(es) != max(l, 0) {
					return false
				}
				at := n.end
				if j := s.r.IntN(len(es) + 1); j < len(es) {
					at = s.l.spans[es[j]].at
				}
				return s.add(s.header(i, max(l, 0)+1), edit{at, at, v})
			}
		}
	}
	return false
}

// fits reports whether span sp of layout o, moved to depth, nests no
// deeper than maxDepth.
func fits(o *layout, sp span, depth int32) bool {
	return sp.depth >= depth || o.maxDepth-sp.depth+depth < maxDepth
}

// hint puts a compared operand where its other operand came from
// (mutation.hint), for spans outside maps: one candidate chosen uniformly
// among all (reservoir sampling, nothing built for the others).
func (s *spanMutation) hint() bool {
	for range 8 {
		var h hintPick
		if len(s.hints.Ints) > 0 && s.r.IntN(2) == 0 {
			c := s.hints.Ints[s.r.IntN(len(s.hints.Ints))]
			s.intHints(&h, c.A, c.B, c.Size)
			s.intHints(&h, c.B, c.A, c.Size)
		} else if len(s.hints.Strs) > 0 {
			c := s.hints.Strs[s.r.IntN(len(s.hints.Strs))]
			a, b := []byte(c[0]), []byte(c[1])
			for _, i := range s.l.strings {
				s.strHint(&h, int(i), a, b)
				s.strHint(&h, int(i), b, a)
			}
		}
		if h.seen > 0 {
			edits := s.hintEdits(h)
			return edits != nil && s.add(edits...)
		}
	}
	return false
}

// A hintPick is the candidate a hint scan keeps: set span i to the number
// to, resize it to length to, or give a string span the contents str.
type hintPick struct {
	seen int
	i    int
	op   hintOp
	to   uint64
	str  []byte
}

type hintOp uint8

const (
	hintSet hintOp = iota
	hintResize
	hintString
)

// offer counts a candidate and reports whether h keeps it.
func (h *hintPick) offer(s *spanMutation, i int, op hintOp, to uint64) bool {
	h.seen++
	if s.r.IntN(h.seen) != 0 {
		return false
	}
	*h = hintPick{seen: h.seen, i: i, op: op, to: to}
	return true
}

// intHints offers the spans where an integer operand from of size bytes
// may have come from: numbers equal to it, slices, strings and byte
// slices that long, strings holding its bytes.
func (s *spanMutation) intHints(h *hintPick, from, to uint64, size int) {
	mask := sizeMask(size)
	for k, i := range s.l.numbers {
		v := s.l.numberVals[k]
		if s.l.spans[i].c.kind != kSlice {
			if v&mask == from&mask {
				h.offer(s, int(i), hintSet, to)
			}
		} else if v == from && to != from && to <= maxHintLen {
			h.offer(s, int(i), hintResize, to)
		}
	}
	// The compiler compares a string with a short constant as integers
	// loaded from its bytes (little-endian).
	var f, t [8]byte
	binary.LittleEndian.PutUint64(f[:], from)
	binary.LittleEndian.PutUint64(t[:], to)
	for _, i := range s.l.strings {
		if uint64(len(s.l.contents(s.l.spans[i]))) == from && to != from && to <= maxHintLen {
			h.offer(s, int(i), hintResize, to)
		}
		s.strHint(h, int(i), f[:size], t[:size])
	}
}

// strHint offers replacing from with to in string span i; the
// replacement is built only for the candidate kept.
func (s *spanMutation) strHint(h *hintPick, i int, from, to []byte) {
	cur := s.l.contents(s.l.spans[i])
	switch {
	case bytes.Equal(cur, from):
		if h.offer(s, i, hintString, 0) {
			h.str = bytes.Clone(to)
		}
	case len(from) > 0 && bytes.Contains(cur, from):
		if h.offer(s, i, hintString, 0) {
			h.str = bytes.Replace(cur, from, to, 1)
		}
	}
}

// hintEdits returns the edits of the picked hint, or nil.
func (s *spanMutation) hintEdits(h hintPick) []edit {
	sp := s.l.spans[h.i]
	switch {
	case h.op == hintSet:
		v := make([]byte, sp.c.size)
		writeLE(v, h.to)
		return []edit{{sp.at, sp.end, v}}
	case h.op == hintResize && sp.c.kind == kSlice:
		return s.resize(h.i, int(h.to))
	case h.op == hintResize:
		return s.resizeString(sp, int(h.to))
	}
	return []edit{{sp.at, sp.end, lengthPrefixed(h.str, int(boolBit(sp.c.kind == kBytes)))}}
}

// resize gives slice i length n: cut, or grown by copies of its last
// element (zero values if it has none).
func (s *spanMutation) resize(i, n int) []edit {
	sp, l := s.l.spans[i], max(s.l.count(i), 0)
	es := s.l.elems(i)
	if len(es) != l {
		return nil
	}
	if n < l {
		return []edit{s.header(i, n), {s.l.spans[es[n]].at, sp.end, nil}}
	}
	var last []byte
	if l > 0 {
		e := s.l.spans[es[l-1]]
		last = s.l.canon[e.at:e.end]
	} else {
		e := encoder{depth: int(sp.depth) + 1}
		if e.encode(sp.c.elem, reflect.New(sp.c.elem.t).Elem()) != nil {
			return nil
		}
		last = e.b
	}
	return []edit{s.header(i, n), {sp.end, sp.end, bytes.Repeat(last, n-l)}}
}

// resizeString gives a string or byte slice length n: cut, or padded with
// its last byte.
func (s *spanMutation) resizeString(sp span, n int) []edit {
	cur := s.l.contents(sp)
	out := append([]byte(nil), cur[:min(n, len(cur))]...)
	pad := byte(0)
	if len(cur) > 0 {
		pad = cur[len(cur)-1]
	}
	for len(out) < n {
		out = append(out, pad)
	}
	return []edit{{sp.at, sp.end, lengthPrefixed(out, int(boolBit(sp.c.kind == kBytes)))}}
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
