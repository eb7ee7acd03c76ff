package typed

import (
	"bytes"
	"math"
	"reflect"
)

// Shrink implements typedhook.Harness: semantic minimization. It first
// re-encodes data canonically, then walks the value's places in pre-order
// and tries, at each, the simplifications of its kind — nil pointers,
// slices and maps, fewer elements and entries, shorter strings, zero
// structs and fields, numbers nearer zero — keeping each one keep accepts,
// until a pass over every place keeps none or stop returns true. Each kept
// step makes the value simpler, so it ends.
func (h *harness) Shrink(data []byte, keep func([]byte) bool, stop func() bool) (out []byte, smaller bool) {
	best := data
	// A user's marshaling method that panics on a candidate ends the
	// minimization with the smallest input kept so far (see Mutate).
	defer func() {
		if recover() != nil {
			out, smaller = best, !bytes.Equal(best, data)
		}
	}()
	if c := h.tree(data).encode(len(data)); c != nil && !bytes.Equal(c, data) && keep(c) {
		best = c
	}
	for progress := true; progress && !stop(); {
		progress = false
		for i := 0; i < len(h.tree(best).nodes) && !stop(); i++ {
			for _, simplify := range simplifications {
				// Variant j of a simplification (the element
				// dropOne removes) is tried again while kept.
				for j := 0; !stop(); {
					t := h.tree(best)
					if i >= len(t.nodes) || !simplify(t.nodes[i], j) {
						break
					}
					t.commit(t.nodes[i])
					c := t.encode(len(best))
					if c == nil || bytes.Equal(c, best) || !keep(c) {
						j++
						continue
					}
					best, progress = c, true
				}
			}
		}
	}
	return best, !bytes.Equal(best, data)
}

// simplifications are tried in order at each place. Each makes variant j
// of its change and reports whether there is one; most have one variant.
var simplifications = []func(n node, j int) bool{
	zeroValue,
	halve,
	dropOne,
	smallerNumber,
}

// zeroValue makes a value its type's zero: a nil pointer, slice or map, a
// zero struct, "" or 0.
func zeroValue(n node, j int) bool {
	if j > 0 || n.v.IsZero() {
		return false
	}
	n.v.SetZero()
	return true
}

// halve cuts a slice, string or map to half its length (a first element
// kept), and a non-nil empty slice or map to nil.
func halve(n node, j int) bool {
	switch n.c.kind {
	case kSlice, kBytes, kString, kMap:
		if l := n.v.Len(); l > 1 && j == 0 {
			resize(n, l/2)
			return true
		}
	}
	return false
}

// dropOne removes element j of a slice or string (a byte), or entry j of
// a map in its keys' encoded order.
func dropOne(n node, j int) bool {
	v := n.v
	switch n.c.kind {
	case kSlice, kBytes, kString, kMap:
		if j >= v.Len() {
			return false
		}
	}
	switch n.c.kind {
	case kSlice, kBytes:
		v.Set(reflect.AppendSlice(v.Slice3(0, j, j), v.Slice(j+1, v.Len())))
	case kString:
		s := v.String()
		v.SetString(s[:j] + s[j+1:])
	case kMap:
		v.SetMapIndex(sortedKeys(n.c, v)[j], reflect.Value{})
	default:
		return false
	}
	return true
}

// smallerNumber moves a number toward zero by half its magnitude
// (variant 0), a quarter (1), an eighth (2), … down to one: tried again
// while kept, it reaches the least magnitude the failure keeps. A float
// with a fraction loses it.
func smallerNumber(n node, j int) bool {
	if j >= 64 {
		return false
	}
	switch n.c.kind {
	case kInt:
		x := n.v.Int()
		d := x / 2 >> j
		if x < 0 {
			d = -(-(x / 2) >> j)
		}
		if d == 0 {
			return false
		}
		n.v.SetInt(x - d)
		return true
	case kUint:
		x := n.v.Uint()
		d := x / 2 >> j
		if d == 0 {
			return false
		}
		n.v.SetUint(x - d)
		return true
	case kFloat:
		if f := n.v.Float(); j == 0 && f != math.Trunc(f) && !math.IsInf(f, 0) && !math.IsNaN(f) {
			n.v.SetFloat(math.Trunc(f))
			return true
		}
	}
	return false
}
