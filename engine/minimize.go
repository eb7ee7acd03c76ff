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
	return shrinkUntil(vals, keep, func() bool { return false })
}

// shrinkUntil is shrink that gives up as soon as stop reports true (its
// budget is spent), without even building the remaining candidates.
func shrinkUntil(vals []any, keep func([]any) bool, stop func() bool) (best []any, smaller bool) {
	best = cloneValues(vals)
	try := func(i int, v any) bool {
		// keep gets its own copy: it runs the fuzz function, which may
		// change a []byte argument, and the candidate it accepted must be
		// the one it ran. (Candidate values are fresh and never changed
		// in place, so cand may share them with best.)
		cand := append([]any(nil), best...)
		cand[i] = v
		if keep(cloneValues(cand)) {
			best, smaller = cand, true
			return true
		}
		return false
	}
	for progress := true; progress && !stop(); {
		progress = false
		for i := range best {
			if shrinkValue(best[i], func(v any) bool { return try(i, v) }, stop) {
				progress = true
			}
		}
	}
	return best, smaller
}

// shrinkValue proposes smaller versions of v to try, in order, and reports
// whether any was kept. try returns true when its candidate was kept and is
// now the current value.
func shrinkValue(v any, try func(any) bool, stop func() bool) bool {
	switch v := v.(type) {
	case []byte:
		return shrinkBytes(v, func(b []byte) bool { return try(b) }, stop)
	case string:
		return shrinkBytes([]byte(v), func(b []byte) bool { return try(string(b)) }, stop)
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
func shrinkBytes(b []byte, try func([]byte) bool, stop func() bool) bool {
	kept := false
	cur := append([]byte(nil), b...)
	for n := len(cur); n > 0; n /= 2 {
		for i := 0; i+n <= len(cur); {
			if stop() {
				return kept
			}
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
		if stop() {
			return kept
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

// shrinkInt moves v toward zero: zero itself, then a binary search for the
// smallest magnitude that is kept (the exact boundary when failing is
// monotonic in the magnitude, as in x >= 1000). Negative values of signed
// kinds stay negative.
func shrinkInt(v uint64, size int, signed bool, try func(uint64) bool) bool {
	if v == 0 {
		return false
	}
	if try(0) {
		return true
	}
	neg := signed && int64(signExtend(v, size)) < 0
	mag := v
	if neg {
		mag = -signExtend(v, size) // the magnitude; 1<<63 for MinInt64
	}
	val := func(m uint64) uint64 {
		if neg {
			return -m
		}
		return m
	}
	kept := false
	// Invariant: magnitude lo was refused (0 was), magnitude mag is kept.
	for lo := uint64(0); mag-lo > 1; {
		mid := lo + (mag-lo)/2
		if try(val(mid)) {
			mag, kept = mid, true
		} else {
			lo = mid
		}
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
