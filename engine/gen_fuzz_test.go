package engine

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/engine/instrument"
)

// The engine's own fuzz tests (Fuzz* in *_fuzz_test.go) build their inputs
// with fuzzReader: every byte string describes some list of values or some
// comparison trace (missing bytes read as zero), so the fuzzer spends no
// time learning a format, and every supported type, bit pattern and shape is
// reachable. genValues and the gen* helpers write the same description for
// the seeds.

// fuzzReader consumes fuzz input bytes.
type fuzzReader struct{ b []byte }

func (r *fuzzReader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *fuzzReader) u64() uint64 {
	var x [8]byte
	n := copy(x[:], r.b)
	r.b = r.b[n:]
	return binary.LittleEndian.Uint64(x[:])
}

// bytes reads a length byte and up to that many bytes (never nil).
func (r *fuzzReader) bytes() []byte {
	n := min(int(r.byte()), len(r.b))
	out := append([]byte{}, r.b[:n]...)
	r.b = r.b[n:]
	return out
}

// values reads 0 to 8 values: a count, then per value a kind (kBytes ..
// kUint64, modulo) and its payload: length and bytes for []byte and string,
// one byte for bool, 8 little-endian bytes of the bits for numbers (so NaN
// payloads, -0 and every integer are reachable).
func (r *fuzzReader) values() []any {
	n := int(r.byte() % 9)
	vals := make([]any, 0, n)
	for range n {
		vals = append(vals, r.value())
	}
	return vals
}

func (r *fuzzReader) value() any {
	switch k := r.byte() % (kUint64 + 1); k {
	case kBytes:
		return r.bytes()
	case kString:
		return string(r.bytes())
	case kBool:
		return r.byte()&1 == 1
	default:
		return fromBits(k, r.u64())
	}
}

// genValues is the description of vals that values reads back. []byte and
// string values must be at most 255 bytes.
func genValues(vals ...any) []byte {
	b := []byte{byte(len(vals))}
	for _, v := range vals {
		switch v := v.(type) {
		case []byte:
			b = append(append(b, kBytes, byte(len(v))), v...)
		case string:
			b = append(append(b, kString, byte(len(v))), v...)
		case bool:
			b = append(b, kBool, map[bool]byte{false: 0, true: 1}[v])
		default:
			k, bits := numBits(v)
			b = binary.LittleEndian.AppendUint64(append(b, k), bits)
		}
	}
	return b
}

// Comparison flags of the trace description.
const (
	genConst  = 1 << 0 // IntCmp.Const
	genDerive = 1 << 1 // take operand A from the input (see trace)
	genSwap   = 1 << 2 // swap the operands
	genFold   = 1 << 3 // string comparison by strings.EqualFold
	genCase   = 3 << 4 // case change of a derived string operand: 1 ASCII swap, 2 upper, 3 lower
)

// trace reads a comparison trace for vals: a count of integer comparisons,
// each a width byte, flags and two operands, then a count of string
// comparisons, each flags and two operands. A width byte below 0xf0 picks 1,
// 2, 4 or 8; from 0xf0 up it is the width minus 0xf0, so invalid widths (0,
// 3, 9..15) occur too. With genDerive, A is read from the input: its low
// byte picks the argument, the next two bytes the offset, bit 24 the byte
// order, bit 25 the argument's length instead; a string operand A's first
// three bytes pick the argument, offset and length of an input slice,
// changed in case by genCase, or an integer argument's decimal form.
func (r *fuzzReader) trace(vals []any) *cmpTrace {
	tr := &cmpTrace{}
	for range r.byte() % 9 {
		tr.ints = append(tr.ints, r.intCmp(vals))
	}
	for range r.byte() % 9 {
		a, b, fold := r.strCmp(vals)
		tr.strs = append(tr.strs, [2]string{a, b})
		tr.fold = append(tr.fold, fold)
	}
	return tr
}

func (r *fuzzReader) intCmp(vals []any) instrument.IntCmp {
	size := r.byte()
	if size < 0xf0 {
		size = 1 << (size % 4)
	} else {
		size -= 0xf0
	}
	flags := r.byte()
	c := instrument.IntCmp{A: r.u64(), B: r.u64(), Size: size, Const: flags&genConst != 0}
	if flags&genDerive != 0 {
		c.A = deriveInt(vals, c.A, int(size))
	}
	if flags&genSwap != 0 {
		c.A, c.B = c.B, c.A
	}
	return c
}

// deriveInt reads a size-byte integer from the input as the selector sel
// says, or returns sel when it cannot.
func deriveInt(vals []any, sel uint64, size int) uint64 {
	if len(vals) == 0 || size < 1 || size > 8 {
		return sel
	}
	v := vals[int(sel&0xff)%len(vals)]
	if n := byteLen(v); sel>>25&1 == 1 {
		return uint64(n)
	}
	switch v := v.(type) {
	case []byte:
		return readAt(v, int(sel>>8&0xffff), size, sel>>24&1 == 1, sel)
	case string:
		return readAt([]byte(v), int(sel>>8&0xffff), size, sel>>24&1 == 1, sel)
	case bool, float32, float64:
		return sel
	default:
		_, bits := numBits(v)
		return bits
	}
}

func readAt(b []byte, off, size int, big bool, dflt uint64) uint64 {
	if len(b) < size {
		return dflt
	}
	return readInt(b[off%(len(b)-size+1):], size, big)
}

func (r *fuzzReader) strCmp(vals []any) (a, b string, fold bool) {
	flags := r.byte()
	a, b = string(r.bytes()), string(r.bytes())
	if flags&genDerive != 0 {
		a = deriveStr(vals, a)
		switch flags & genCase >> 4 {
		case 1:
			a = asciiSwapCase(a)
		case 2:
			a = strings.ToUpper(a)
		case 3:
			a = strings.ToLower(a)
		}
	}
	if flags&genSwap != 0 {
		a, b = b, a
	}
	return a, b, flags&genFold != 0
}

// deriveStr returns the slice of a []byte or string argument that sel's
// first three bytes select (argument, offset, length), or sel itself.
func deriveStr(vals []any, sel string) string {
	if len(vals) == 0 || len(sel) < 3 {
		return sel
	}
	var s string
	switch v := vals[int(sel[0])%len(vals)].(type) {
	case []byte:
		s = string(v)
	case string:
		s = v
	case bool, float32, float64:
		return sel
	default:
		_, bits := numBits(v)
		return strconv.FormatInt(int64(bits), 10)
	}
	off := int(sel[1]) % (len(s) + 1)
	return s[off : off+min(int(sel[2]), len(s)-off)]
}

// asciiSwapCase swaps the case of ASCII letters and leaves every other byte
// (invalid UTF-8 included) alone.
func asciiSwapCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			b[i] = c ^ 0x20
		}
	}
	return string(b)
}

// genIntCmp and genStrCmp describe one comparison for trace; genTrace
// puts them together.
func genIntCmp(size, flags byte, a, b uint64) []byte {
	out := []byte{size, flags}
	out = binary.LittleEndian.AppendUint64(out, a)
	return binary.LittleEndian.AppendUint64(out, b)
}

func genStrCmp(flags byte, a, b string) []byte {
	out := append([]byte{flags, byte(len(a))}, a...)
	return append(append(out, byte(len(b))), b...)
}

func genTrace(ints, strs [][]byte) []byte {
	out := append([]byte{byte(len(ints))}, bytes.Join(ints, nil)...)
	return append(append(out, byte(len(strs))), bytes.Join(strs, nil)...)
}

// sameShape reports (as a test error) whether got has want's argument count
// and types.
func sameShape(t *testing.T, what string, got, want []any) bool {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d arguments, want %d", what, len(got), len(want))
		return false
	}
	for i := range got {
		if reflect.TypeOf(got[i]) != reflect.TypeOf(want[i]) {
			t.Errorf("%s: argument %d is %T, want %T", what, i, got[i], want[i])
			return false
		}
	}
	return true
}

// argBytes returns a []byte or string argument's bytes.
func argBytes(v any) ([]byte, bool) {
	switch v := v.(type) {
	case []byte:
		return v, true
	case string:
		return []byte(v), true
	}
	return nil, false
}
