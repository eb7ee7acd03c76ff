package engine

import (
	"math"
)

// shrink minimizes vals: it tries smaller candidates and keeps each one for
// which keep returns true, until no candidate is kept in a whole pass or keep
// starts refusing because its budget ran out. Every argument type shrinks:
// []byte and string values get shorter and then printable, integers move
// toward zero, floats toward zero and to integral values, bools to false.
// keep must not retain its argument.
func shrink(vals []any, keep func([]any) bool) (best []any, smaller bool) {
	best = cloneValues(vals)
	try := func(i int, v any) bool {
		cand := cloneValues(best)
		cand[i] = v
		if keep(cand) {
			best, smaller = cand, true
			return true
		}
		return false
	}
	for progress := true; progress; {
		progress = false
		for i := range best {
			if shrinkValue(best[i], func(v any) bool { return try(i, v) }) {
				progress = true
			}
		}
	}
	return best, smaller
}

// shrinkValue proposes smaller versions of v to try, in order, and reports
// whether any was kept. try returns true when its candidate was kept and is
// now the current value.
func shrinkValue(v any, try func(any) bool) bool {
	switch v := v.(type) {
	case []byte:
		return shrinkBytes(v, func(b []byte) bool { return try(b) })
	case string:
		return shrinkBytes([]byte(v), func(b []byte) bool { return try(string(b)) })
	case bool:
		return v && try(false)
	case float32:
		return shrinkFloat(float64(v), func(f float64) bool { return try(float32(f)) })
	case float64:
		return shrinkFloat(v, func(f float64) bool { return try(f) })
	}
	k, bits := numBits(v)
	size, signed := intShape(k)
	return shrinkInt(bits, size, signed, func(u uint64) bool { return try(fromBits(k, u)) })
}

// shrinkBytes removes ever smaller chunks, then makes bytes printable.
func shrinkBytes(b []byte, try func([]byte) bool) bool {
	kept := false
	cur := append([]byte(nil), b...)
	for n := len(cur); n > 0; n /= 2 {
		for i := 0; i+n <= len(cur); {
			cand := append(append([]byte(nil), cur[:i]...), cur[i+n:]...)
			if try(cand) {
				cur, kept = cand, true
				continue
			}
			i += n
		}
	}
	for i := range cur {
		if c := cur[i]; c >= 0x20 && c < 0x7f {
			continue
		}
		for _, p := range []byte{'0', 'a', ' '} {
			cand := append([]byte(nil), cur...)
			cand[i] = p
			if try(cand) {
				cur, kept = cand, true
				break
			}
		}
	}
	return kept
}

func shrinkInt(v uint64, size int, signed bool, try func(uint64) bool) bool {
	if v == 0 {
		return false
	}
	if try(0) {
		return true
	}
	neg := signed && int64(signExtend(v, size)) < 0
	kept := false
	for step := 0; step < 64; step++ {
		var cand uint64
		if neg {
			cand = uint64(int64(signExtend(v, size)) / 2)
		} else {
			cand = v / 2
		}
		if cand == v || !try(cand) {
			break
		}
		v, kept = cand, true
	}
	if v != 0 && try(v-1) && !neg {
		kept = true
	}
	return kept
}

func shrinkFloat(f float64, try func(float64) bool) bool {
	if f == 0 && !math.Signbit(f) {
		return false
	}
	if try(0) {
		return true
	}
	if t := math.Trunc(f); t != f && !math.IsNaN(f) && try(t) {
		return true
	}
	return false
}
