package typed

import (
	"bytes"
	"encoding/binary"
	"reflect"
)

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
