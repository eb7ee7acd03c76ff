package typed

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"

	"github.com/fuzzbox/fuzzbox/internal/typedhook"
)

// Mutate implements typedhook.Harness: it changes one to three places of
// data's value by their types, through the byte ranges of its canonical
// encoding (spans.go) or, for maps, by decoding it into a tree and
// encoding it again. It returns nil when nothing changed the encoding.
func (h *harness) Mutate(data []byte, r *rand.Rand, splice [][]byte, hints *typedhook.Hints) (out []byte) {
	// A user's UnmarshalText or MarshalBinary may panic on what decoding
	// or a mutation gives it: that is the code's bug, which the fuzz
	// function's own decoding of the input meets and reports; here it
	// only means no mutant.
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	if hints == nil {
		hints = &typedhook.Hints{}
	}
	m := mutation{r: r, splice: splice, hints: hints}
	if l := h.layoutOf(data); l != nil {
		s := spanMutation{mutation: m, h: h, l: l}
		s.edits = s.buf[:0]
		if out, ok := l.mutate(&s); ok {
			if out == nil || bytes.Equal(out, data) {
				return nil
			}
			return out
		}
	}
	t := h.unorderedTree(data)
	for i, n := 0, 1+r.IntN(3); i < n && len(t.nodes) > 0; i++ {
		if changed, leaf := m.step(t); changed && !leaf && i < n-1 {
			t.index() // the change may have added or removed places
		}
	}
	out = t.encode(len(data))
	if out == nil || bytes.Equal(out, data) {
		return nil
	}
	return out
}

type mutation struct {
	r      *rand.Rand
	splice [][]byte
	hints  *typedhook.Hints
}

// step makes one change and reports whether it made one, and whether the
// change was to a leaf outside maps (a number, a string's contents), which
// leaves the tree's index as it was.
func (m *mutation) step(t *tree) (changed, leaf bool) {
	switch k := m.r.IntN(16); {
	case k < 4:
		if m.hint(t) {
			return true, false
		}
	case k < 6 && len(m.splice) > 0:
		if m.spliceNode(t) {
			return true, false
		}
	}
	n := m.pick(t)
	if !m.node(n) {
		return false, false
	}
	t.commit(n)
	switch n.c.kind {
	case kSlice, kMap, kPtr, kStruct, kArray:
		return true, false
	}
	return true, n.entry < 0
}

// pick returns the place to change: one in three times a slice, map or
// pointer when the value has some (a sequence of operations is one slice
// among many fields: structural steps would be rare), else any place.
func (m *mutation) pick(t *tree) node {
	if m.r.IntN(3) == 0 {
		var n node
		seen := 0
		for _, c := range t.nodes {
			switch c.c.kind {
			case kSlice, kMap, kPtr:
				seen++
				if m.r.IntN(seen) == 0 { // reservoir: uniform among them
					n = c
				}
			}
		}
		if seen > 0 {
			return n
		}
	}
	return t.nodes[m.r.IntN(len(t.nodes))]
}

// node changes the value at n by its kind.
func (m *mutation) node(n node) bool {
	v := n.v
	switch n.c.kind {
	case kBool:
		v.SetBool(!v.Bool())
	case kInt, kUint:
		setBits(n.c, v, m.integer(bitsOf(n.c, v), n.c.size))
	case kFloat:
		v.SetFloat(m.float(v.Float()))
	case kComplex:
		c := v.Complex()
		if m.r.IntN(2) == 0 {
			v.SetComplex(complex(m.float(real(c)), imag(c)))
		} else {
			v.SetComplex(complex(real(c), m.float(imag(c))))
		}
	case kString:
		v.SetString(string(m.bytes([]byte(v.String()))))
	case kBytes:
		b := m.bytes(v.Bytes())
		nb := reflect.MakeSlice(n.c.t, len(b), len(b))
		copy(nb.Bytes(), b)
		v.Set(nb)
	case kSlice:
		return m.slice(n)
	case kMap:
		return m.mapValue(n)
	case kPtr:
		if v.IsNil() || m.r.IntN(4) == 0 {
			if v.IsNil() {
				p := reflect.New(n.c.elem.t)
				p.Elem().Set(m.random(n.c.elem, n.depth+1))
				v.Set(p)
			} else {
				v.SetZero()
			}
			return true
		}
		return false
	case kStruct, kArray:
		if m.r.IntN(4) != 0 {
			return false // their fields and elements are nodes of their own
		}
		v.Set(m.random(n.c, n.depth))
	case kBinary, kText:
		return m.marshaled(n)
	}
	return true
}

func bitsOf(c *codec, v reflect.Value) uint64 {
	if c.kind == kInt {
		return uint64(v.Int())
	}
	return v.Uint()
}

func setBits(c *codec, v reflect.Value, x uint64) {
	if c.kind == kInt {
		v.SetInt(signExtend(x, c.size))
	} else {
		v.SetUint(x & sizeMask(c.size))
	}
}

func sizeMask(size int) uint64 {
	if size >= 8 {
		return math.MaxUint64
	}
	return 1<<(8*size) - 1
}

var interestingInts = []int64{0, 1, -1, 2, 7, 8, 16, 32, 64, 100, 127, 128, 255, 256, 512, 1000, 1024, 4096,
	32767, 32768, 65535, 65536, math.MaxInt32, math.MinInt32, math.MaxUint32, math.MaxInt64, math.MinInt64, -128, -129}

func (m *mutation) integer(x uint64, size int) uint64 {
	switch m.r.IntN(8) {
	case 0, 1:
		d := uint64(1)
		if m.r.IntN(2) == 0 {
			d = uint64(1 + m.r.IntN(64))
		}
		if m.r.IntN(2) == 0 {
			return x + d
		}
		return x - d
	case 2:
		// Small values: enum constants, counts, indexes.
		return uint64(m.r.IntN(17))
	case 3:
		return uint64(interestingInts[m.r.IntN(len(interestingInts))])
	case 4:
		return x ^ 1<<m.r.IntN(8*size)
	case 5:
		// An operand the value was compared with: a switch's other
		// cases for a Kind field (sampled, the hints may be many).
		for range min(64, 2*len(m.hints.Ints)) {
			c := m.hints.Ints[m.r.IntN(len(m.hints.Ints))]
			mask := sizeMask(c.Size)
			switch {
			case c.A&mask == x&mask && c.B != c.A:
				return c.B
			case c.B&mask == x&mask && c.A != c.B:
				return c.A
			}
		}
		fallthrough
	case 6:
		if len(m.hints.Ints) > 0 {
			c := m.hints.Ints[m.r.IntN(len(m.hints.Ints))]
			if m.r.IntN(2) == 0 {
				return c.A
			}
			return c.B
		}
		return uint64(m.r.IntN(256))
	}
	return m.r.Uint64()
}

var interestingFloats = []float64{0, 1, -1, 0.5, 2, 1e-9, 1e9, math.MaxFloat64, math.SmallestNonzeroFloat64,
	math.Inf(1), math.Inf(-1), math.NaN()}

func (m *mutation) float(f float64) float64 {
	switch m.r.IntN(5) {
	case 0:
		return f + float64(m.r.IntN(33)-16)
	case 1:
		return -f
	case 2:
		return interestingFloats[m.r.IntN(len(interestingFloats))]
	case 3:
		return f * (m.r.Float64()*4 - 2)
	}
	if len(m.hints.Ints) > 0 {
		c := m.hints.Ints[m.r.IntN(len(m.hints.Ints))]
		return float64(int64(c.B))
	}
	return math.Float64frombits(m.r.Uint64())
}

// bytes returns a changed copy of b (a string's or []byte's contents).
func (m *mutation) bytes(b []byte) []byte {
	b = append([]byte(nil), b...)
	switch k := m.r.IntN(10); {
	case k == 0 && len(b) > 0: // remove a chunk
		i := m.r.IntN(len(b))
		j := i + 1 + m.r.IntN(min(len(b)-i, 8))
		return append(b[:i], b[j:]...)
	case k == 1: // insert random bytes
		ins := make([]byte, 1+m.r.IntN(4))
		for i := range ins {
			ins[i] = byte(m.r.IntN(256))
		}
		return insertAt(b, m.r.IntN(len(b)+1), ins)
	case k == 2: // insert printable bytes
		ins := make([]byte, 1+m.r.IntN(4))
		for i := range ins {
			ins[i] = byte(' ' + m.r.IntN(95))
		}
		return insertAt(b, m.r.IntN(len(b)+1), ins)
	case k == 3 && len(b) > 0:
		b[m.r.IntN(len(b))] ^= 1 << m.r.IntN(8)
		return b
	case k == 4 && len(b) > 0:
		b[m.r.IntN(len(b))] = byte(m.r.IntN(256))
		return b
	case k == 5 && len(b) > 0: // duplicate a chunk
		i := m.r.IntN(len(b))
		j := i + 1 + m.r.IntN(min(len(b)-i, 8))
		return insertAt(b, m.r.IntN(len(b)+1), append([]byte(nil), b[i:j]...))
	case k == 6 && len(b) > 0:
		return b[:m.r.IntN(len(b))]
	case k <= 8:
		if tok := m.token(); tok != nil {
			if k == 7 {
				return tok
			}
			return insertAt(b, m.r.IntN(len(b)+1), tok)
		}
	}
	if len(b) == 0 {
		return []byte{byte(m.r.IntN(256))}
	}
	b[m.r.IntN(len(b))]++
	return b
}

// token returns a copy of a compared string operand or dictionary token,
// or nil.
func (m *mutation) token() []byte {
	n := len(m.hints.Strs)*2 + len(m.hints.Tokens)
	if n == 0 {
		return nil
	}
	i := m.r.IntN(n)
	if i < len(m.hints.Tokens) {
		return append([]byte(nil), m.hints.Tokens[i]...)
	}
	i -= len(m.hints.Tokens)
	return []byte(m.hints.Strs[i/2][i%2])
}

func insertAt(b []byte, i int, ins []byte) []byte {
	return append(b[:i], append(ins, b[i:]...)...)
}

// random returns a fresh value of c's type: the decoding of a few random
// bytes, which every byte string has.
func (m *mutation) random(c *codec, depth int) reflect.Value {
	b := make([]byte, 1+m.r.IntN(24))
	for i := range b {
		b[i] = byte(m.r.IntN(256))
		if i == 0 || m.r.IntN(3) == 0 {
			b[i] &= 7 // small counts and lengths
		}
	}
	d := decoder{b: b, depth: depth}
	v := reflect.New(c.t).Elem()
	d.decode(c, v)
	return v
}

// slice inserts, removes, copies, moves or swaps elements, or makes the
// slice nil or empty. Most inserted elements are copies of one already
// there, changed at one place: a sequence of operations grows by
// operations like the ones that got it this far.
func (m *mutation) slice(n node) bool {
	v, l := n.v, n.v.Len()
	switch k := m.r.IntN(10); {
	case k == 0 || l == 0 && k <= 4: // insert a fresh element
		v.Set(insertElem(v, m.r.IntN(l+1), m.random(n.c.elem, n.depth+1)))
	case k <= 3 && l > 0: // insert a copy of one, next to it or anywhere, changed or not
		i := m.r.IntN(l)
		e := reflect.New(n.c.elem.t).Elem()
		e.Set(v.Index(i))
		if m.r.IntN(3) != 0 {
			m.within(n.c.elem, e, n.depth+1)
		}
		at := i + 1
		if m.r.IntN(3) == 0 {
			at = m.r.IntN(l + 1)
		}
		v.Set(insertElem(v, at, e))
	case k <= 5 && l > 0: // remove one or a few
		i := m.r.IntN(l)
		j := i + 1 + m.r.IntN(min(l-i, 4))
		if m.r.IntN(2) == 0 {
			j = i + 1
		}
		v.Set(reflect.AppendSlice(v.Slice3(0, i, i), v.Slice(j, l)))
	case k == 6 && l > 1: // swap two
		i, j := m.r.IntN(l), m.r.IntN(l)
		reflect.Swapper(v.Interface())(i, j)
	case k == 7 && l > 1: // move one
		i := m.r.IntN(l)
		e := reflect.New(n.c.elem.t).Elem()
		e.Set(v.Index(i))
		rest := reflect.AppendSlice(v.Slice3(0, i, i), v.Slice(i+1, l))
		v.Set(insertElem(rest, m.r.IntN(l), e))
	case k == 8 && l > 0: // truncate
		v.Set(v.Slice(0, m.r.IntN(l)))
	default:
		if v.IsNil() {
			v.Set(reflect.MakeSlice(n.c.t, 0, 0))
		} else if l == 0 {
			v.SetZero()
		} else {
			return false
		}
	}
	return true
}

// within changes e, a settable value of c's type, at one place inside it.
func (m *mutation) within(c *codec, e reflect.Value, depth int) {
	t := &tree{}
	t.walk(c, e, -1, depth)
	for range 4 {
		n := t.nodes[m.r.IntN(len(t.nodes))]
		if m.node(n) {
			t.commit(n)
			return
		}
	}
}

func insertElem(s reflect.Value, i int, e reflect.Value) reflect.Value {
	out := reflect.MakeSlice(s.Type(), 0, s.Len()+1)
	out = reflect.AppendSlice(out, s.Slice(0, i))
	out = reflect.Append(out, e)
	return reflect.AppendSlice(out, s.Slice(i, s.Len()))
}

// mapValue adds or removes an entry, or makes the map nil or empty. Its
// entries' keys and values are nodes of their own.
func (m *mutation) mapValue(n node) bool {
	v := n.v
	switch k := m.r.IntN(4); {
	case k <= 1 || v.Len() == 0 && k == 2:
		if v.IsNil() {
			v.Set(reflect.MakeMap(n.c.t))
		}
		key := m.random(n.c.key, n.depth+1)
		if k == 1 {
			if tok := m.token(); tok != nil && n.c.key.kind == kString {
				key.SetString(string(tok))
			}
		}
		v.SetMapIndex(key, m.random(n.c.elem, n.depth+1))
	case k == 2:
		keys := v.MapKeys()
		v.SetMapIndex(keys[m.r.IntN(len(keys))], reflect.Value{})
	default:
		if v.IsNil() {
			v.Set(reflect.MakeMap(n.c.t))
		} else {
			v.SetZero()
		}
	}
	return true
}

// marshaled changes a value through its marshaled form: the bytes changed
// until the unmarshaling method accepts them, up to four tries.
func (m *mutation) marshaled(n node) bool {
	a := addressable(n.v).Addr().Interface()
	var data []byte
	var err error
	if n.c.kind == kBinary {
		data, err = a.(encoding.BinaryMarshaler).MarshalBinary()
	} else {
		data, err = a.(encoding.TextMarshaler).MarshalText()
	}
	if err != nil {
		return false
	}
	for range 4 {
		p := reflect.New(n.c.t)
		if unmarshal(n.c, p, m.bytes(data)) == nil {
			n.v.Set(p.Elem())
			return true
		}
	}
	return false
}

// spliceNode replaces a place with a value of the same type from another
// corpus entry, or inserts into a slice an element from another entry
// (one entry's operations joined to another's).
func (m *mutation) spliceNode(t *tree) bool {
	other := t.h.unorderedTree(m.splice[m.r.IntN(len(m.splice))])
	if len(other.nodes) == 0 {
		return false
	}
	for range 8 {
		n := t.nodes[m.r.IntN(len(t.nodes))]
		for range 8 {
			o := other.nodes[m.r.IntN(len(other.nodes))]
			// A value spliced deeper than maxDepth does not encode:
			// Mutate then returns nil.
			switch {
			case o.c.t == n.c.t:
				n.v.Set(o.v)
			case n.c.kind == kSlice && o.c.t == n.c.elem.t:
				e := reflect.New(o.c.t).Elem()
				e.Set(o.v)
				n.v.Set(insertElem(n.v, m.r.IntN(n.v.Len()+1), e))
			default:
				continue
			}
			t.commit(n)
			return true
		}
	}
	return false
}

// hint puts a compared operand where its other operand came from: an
// integer place holding one operand gets the other, a slice, string or map
// whose length was compared gets that length, a string equal to or
// containing one string operand gets the other.
func (m *mutation) hint(t *tree) bool {
	type cand struct {
		n   node
		set func(node)
	}
	var cands []cand
	for range 8 {
		if len(m.hints.Ints) > 0 && m.r.IntN(2) == 0 {
			c := m.hints.Ints[m.r.IntN(len(m.hints.Ints))]
			for _, n := range t.nodes {
				for _, ab := range [][2]uint64{{c.A, c.B}, {c.B, c.A}} {
					if x, ok := intHint(n, ab[0], ab[1], c.Size); ok {
						cands = append(cands, cand{n, x})
					}
				}
			}
		} else if len(m.hints.Strs) > 0 {
			c := m.hints.Strs[m.r.IntN(len(m.hints.Strs))]
			for _, n := range t.nodes {
				for _, ab := range [][2]string{{c[0], c[1]}, {c[1], c[0]}} {
					if x, ok := strHint(n, ab[0], ab[1]); ok {
						cands = append(cands, cand{n, x})
					}
				}
			}
		}
		if len(cands) > 0 {
			break
		}
	}
	if len(cands) == 0 {
		return false
	}
	c := cands[m.r.IntN(len(cands))]
	c.set(c.n)
	t.commit(c.n)
	return true
}

// maxHintLen bounds the length a compared length may give a value.
const maxHintLen = 1 << 12

func intHint(n node, from, to uint64, size int) (func(node), bool) {
	mask := sizeMask(size)
	switch n.c.kind {
	case kInt, kUint:
		if bitsOf(n.c, n.v)&mask == from&mask {
			return func(n node) { setBits(n.c, n.v, to) }, true
		}
	case kSlice, kBytes, kString, kMap:
		if uint64(n.v.Len()) == from && to != from && to <= maxHintLen && (n.c.kind != kMap || to < from) {
			return func(n node) { resize(n, int(to)) }, true
		}
	}
	if n.c.kind == kString || n.c.kind == kBytes {
		// The compiler compares a string with a short constant as
		// integers loaded from its bytes (little-endian).
		var f, t [8]byte
		binary.LittleEndian.PutUint64(f[:], from)
		binary.LittleEndian.PutUint64(t[:], to)
		return strHint(n, string(f[:size]), string(t[:size]))
	}
	return nil, false
}

// resize gives a slice, string or map length l: cut, or grown by copies of
// its last element (zero values if it has none); a map only shrinks.
func resize(n node, l int) {
	v := n.v
	switch n.c.kind {
	case kString:
		s := v.String()
		if l <= len(s) {
			v.SetString(s[:l])
		} else {
			pad := byte(0)
			if len(s) > 0 {
				pad = s[len(s)-1]
			}
			v.SetString(s + strings.Repeat(string(pad), l-len(s)))
		}
	case kMap:
		for _, k := range sortedKeys(n.c, v)[l:] {
			v.SetMapIndex(k, reflect.Value{})
		}
	default:
		if l <= v.Len() {
			v.Set(v.Slice(0, l))
			return
		}
		out := reflect.MakeSlice(n.c.t, l, l)
		reflect.Copy(out, v)
		if v.Len() > 0 {
			for i := v.Len(); i < l; i++ {
				out.Index(i).Set(v.Index(v.Len() - 1))
			}
		}
		v.Set(out)
	}
}

func strHint(n node, from, to string) (func(node), bool) {
	var s string
	switch n.c.kind {
	case kString:
		s = n.v.String()
	case kBytes:
		s = string(n.v.Bytes())
	default:
		return nil, false
	}
	var out string
	switch {
	case s == from: // also an empty string compared with a constant
		out = to
	case from != "" && strings.Contains(s, from):
		out = strings.Replace(s, from, to, 1)
	default:
		return nil, false
	}
	return func(n node) {
		if n.c.kind == kString {
			n.v.SetString(out)
			return
		}
		b := reflect.MakeSlice(n.c.t, len(out), len(out))
		copy(b.Bytes(), out)
		n.v.Set(b)
	}, true
}
