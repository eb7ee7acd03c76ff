package engine

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/fuzzbox/fuzzbox/engine/instrument"
)

// Comparison guidance. The worker runs a base input once with comparison
// tracing on (engine/instrument records the operands of every unequal
// integer and string comparison), finds where each operand comes from in
// the input, and derives substitutions that put the other operand there:
// for a 4-byte magic number compared against a little-endian read of the
// input, the substitution writes the magic at the offset it was read from.
// The mutator applies one substitution in a quarter of its mutations.

// cmpSub is one substitution for the current base input.
type cmpSub struct {
	arg  int    // index of the value to change
	at   int    // byte offset in a []byte/string value; -1 replaces a whole value
	from []byte // bytes expected at at (for []byte/string values)
	to   []byte // replacement bytes
	ival any    // replacement for a whole value (at == -1)
}

const maxCmpSubs = 4096

// cmpTrace collects the comparisons of one traced execution.
type cmpTrace struct {
	ints []instrument.IntCmp
	strs [][2]string
	fold []bool
}

func (t *cmpTrace) reset() {
	t.ints, t.strs, t.fold = t.ints[:0], t.strs[:0], t.fold[:0]
}

func (t *cmpTrace) onInt(c instrument.IntCmp) { t.ints = append(t.ints, c) }

func (t *cmpTrace) onStr(c *instrument.StrCmp) {
	t.strs = append(t.strs, [2]string{string(c.A[:c.LenA]), string(c.B[:c.LenB])})
	t.fold = append(t.fold, c.Fold)
}

// tokens returns the operands seen, for the dictionary: integer operands of
// 2 bytes or more as little-endian bytes, and string operands.
func (t *cmpTrace) tokens() [][]byte {
	seen := map[string]bool{}
	var out [][]byte
	add := func(b []byte) {
		if len(b) > 0 && !seen[string(b)] && len(out) < 256 {
			seen[string(b)] = true
			out = append(out, b)
		}
	}
	for _, c := range t.ints {
		// Small constants (loop bounds, lengths, -1) make poor tokens.
		if c.Size >= 2 && c.Const && c.B >= 0x100 && c.B < ^uint64(0)-0xff {
			add(enc(c.B, int(c.Size), false))
		}
	}
	for _, s := range t.strs {
		add([]byte(s[0]))
		add([]byte(s[1]))
	}
	return out
}

// substitutions derives the substitutions for vals from the trace.
func (t *cmpTrace) substitutions(vals []any) []cmpSub {
	var subs []cmpSub
	add := func(s cmpSub) {
		if len(subs) < maxCmpSubs {
			subs = append(subs, s)
		}
	}
	for _, c := range t.ints {
		intSubs(vals, c.A, c.B, int(c.Size), add)
		intSubs(vals, c.B, c.A, int(c.Size), add)
	}
	for i, s := range t.strs {
		strSubs(vals, s[0], s[1], t.fold[i], add)
		strSubs(vals, s[1], s[0], t.fold[i], add)
	}
	return subs
}

// intSubs adds substitutions that replace operand a by b (and b±1) where a
// appears in vals: as an integer value, or inside []byte/string values in
// either byte order or as decimal or hex text.
func intSubs(vals []any, a, b uint64, size int, add func(cmpSub)) {
	for i, v := range vals {
		switch v := v.(type) {
		case []byte:
			byteIntSubs(i, v, a, b, size, add)
		case string:
			byteIntSubs(i, []byte(v), a, b, size, add)
		case bool, float32, float64:
		default:
			k, bits := numBits(v)
			vs, _ := intShape(k)
			mask := uint64(1)<<(8*min(size, vs)) - 1 // all ones for 8 bytes: the shift gives 0
			if bits&mask == a&mask {
				for _, d := range []uint64{0, 1, ^uint64(0)} {
					add(cmpSub{arg: i, at: -1, ival: fromBits(k, signExtend(b+d, size))})
				}
			}
		}
	}
}

// signExtend widens a size-byte operand so that signed kinds keep its value.
func signExtend(v uint64, size int) uint64 {
	if size >= 8 {
		return v
	}
	shift := uint(64 - 8*size)
	return uint64(int64(v<<shift) >> shift)
}

func byteIntSubs(arg int, b []byte, a, r uint64, size int, add func(cmpSub)) {
	if size == 1 {
		// A byte compared with another (a parser's character tests): put
		// the other byte where this one occurs (indexAll keeps it to 8).
		for _, at := range indexAll(b, []byte{byte(a)}) {
			add(cmpSub{arg: arg, at: at, from: []byte{byte(a)}, to: []byte{byte(r)}})
		}
	}
	if size >= 2 {
		for _, big := range []bool{false, true} {
			from, to := enc(a, size, big), enc(r, size, big)
			for _, at := range indexAll(b, from) {
				add(cmpSub{arg: arg, at: at, from: from, to: to})
			}
		}
	}
	for _, base := range []int{10, 16} {
		from := []byte(strconv.FormatUint(a, base))
		if len(from) < 2 && size > 1 {
			continue
		}
		for _, at := range indexAll(b, from) {
			add(cmpSub{arg: arg, at: at, from: from, to: []byte(strconv.FormatUint(r, base))})
			add(cmpSub{arg: arg, at: at, from: from, to: []byte(strconv.FormatInt(int64(signExtend(r, size)), base))})
		}
	}
}

func strSubs(vals []any, a, b string, fold bool, add func(cmpSub)) {
	for i, v := range vals {
		var s []byte
		switch v := v.(type) {
		case []byte:
			s = v
		case string:
			if v == a || (fold && strings.EqualFold(v, a)) {
				add(cmpSub{arg: i, at: -1, ival: b})
			}
			s = []byte(v)
		default:
			continue
		}
		if a == "" {
			continue
		}
		ats := indexAll(s, []byte(a))
		if fold && len(ats) == 0 {
			ats = indexAll(bytes.ToLower(s), bytes.ToLower([]byte(a)))
		}
		for _, at := range ats {
			add(cmpSub{arg: i, at: at, from: s[at : at+len(a)], to: []byte(b)})
		}
		if len(ats) == 0 && len(s) < len(a) && strings.HasPrefix(a, string(s)) {
			// The input is a prefix of the operand: complete it.
			add(cmpSub{arg: i, at: 0, from: s, to: []byte(a)})
		}
	}
}

// applyCmp applies one random substitution to vals, reporting whether it
// could.
func (m *mutator) applyCmp(vals []any) bool {
	s := m.cmp[m.r.IntN(len(m.cmp))]
	if s.arg >= len(vals) {
		return false
	}
	old := vals[s.arg]
	if !applySub(vals, s) {
		return false
	}
	if n := valuesSize(vals[s.arg : s.arg+1]); n > m.maxLen {
		vals[s.arg] = old // the mutator's length limit holds for substitutions too
		return false
	}
	return true
}

// applySub applies s to vals, reporting whether it could.
func applySub(vals []any, s cmpSub) bool {
	if s.arg >= len(vals) {
		return false
	}
	if s.at < 0 {
		vals[s.arg] = s.ival
		return true
	}
	switch v := vals[s.arg].(type) {
	case []byte:
		vals[s.arg] = replaceAt(v, s)
	case string:
		vals[s.arg] = string(replaceAt([]byte(v), s))
	default:
		return false
	}
	return true
}

func replaceAt(b []byte, s cmpSub) []byte {
	if s.at+len(s.from) > len(b) {
		return b
	}
	out := make([]byte, 0, len(b)-len(s.from)+len(s.to))
	out = append(out, b[:s.at]...)
	out = append(out, s.to...)
	return append(out, b[s.at+len(s.from):]...)
}

func enc(v uint64, size int, big bool) []byte {
	b := make([]byte, size)
	writeInt(b, size, big, v)
	return b
}

// indexAll returns the offsets of the first few occurrences of sub in b.
func indexAll(b, sub []byte) []int {
	var out []int
	for off := 0; len(out) < 8; {
		i := bytes.Index(b[off:], sub)
		if i < 0 {
			break
		}
		out = append(out, off+i)
		off += i + 1
	}
	return out
}
