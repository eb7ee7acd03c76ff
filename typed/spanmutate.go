package typed

import (
	"encoding/binary"
	"math"
	"reflect"
)

// The span mutations: a mutant as edits of byte ranges of a base's layout
// (spans.go), made by the kinds of change mutation.step makes on a tree.

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
