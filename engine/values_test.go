package engine

import (
	"bytes"
	"math"
	"reflect"
	"strconv"
	"testing"
)

// sameValue reports whether a and b have the same type and the same bits
// (NaN payloads and the sign of zero included).
func sameValue(a, b any) bool {
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	switch a := a.(type) {
	case []byte:
		return bytes.Equal(a, b.([]byte))
	case float32:
		return math.Float32bits(a) == math.Float32bits(b.(float32))
	case float64:
		return math.Float64bits(a) == math.Float64bits(b.(float64))
	}
	return a == b
}

func sameValues(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameValue(a[i], b[i]) {
			return false
		}
	}
	return true
}

func TestValuesRoundTrip(t *testing.T) {
	nan64 := math.Float64frombits(0x7ff8_0000_dead_beef)
	nan32 := math.Float32frombits(0x7fc0_1234)
	tests := []struct {
		name string
		vals []any
	}{
		{"empty", nil},
		{"bytes", []any{[]byte("hello\x00\xff")}},
		{"empty bytes", []any{[]byte{}}},
		{"long bytes", []any{bytes.Repeat([]byte{0xab}, 300)}}, // two-byte uvarint length
		{"string", []any{"héllo"}},
		{"empty string", []any{""}},
		{"invalid utf8", []any{"\xff\xfe\xc0", []byte("\xc3\x28")}},
		{"bools", []any{true, false}},
		{"float64", []any{1.5, math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64}},
		{"float64 nan payload", []any{nan64, math.NaN()}},
		{"negative zero", []any{math.Copysign(0, -1), float32(math.Copysign(0, -1))}},
		{"float32", []any{float32(3.25), float32(math.MaxFloat32), nan32}},
		{"signed", []any{int(-1), int8(math.MinInt8), int16(math.MinInt16), int32(math.MinInt32), int64(math.MinInt64)}},
		{"signed max", []any{int(math.MaxInt), int8(math.MaxInt8), int16(math.MaxInt16), int32(math.MaxInt32), int64(math.MaxInt64)}},
		{"unsigned", []any{uint(math.MaxUint), uint8(255), uint16(65535), uint32(math.MaxUint32), uint64(math.MaxUint64)}},
		{"zeros", []any{int(0), uint8(0), 0.0, float32(0), false, "", []byte{}}},
		{"mixed", []any{[]byte("a"), "b", true, int32(-7), uint16(9), 2.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := appendValues(nil, tt.vals)
			got, err := decodeValues(enc)
			if err != nil {
				t.Fatalf("decodeValues(%x): %v", enc, err)
			}
			if !sameValues(got, tt.vals) {
				t.Fatalf("round trip of %#v gave %#v", tt.vals, got)
			}
			// The encoding appends: a prefix is kept.
			pre := appendValues([]byte{kBool, 1}, tt.vals)
			if !bytes.Equal(pre[2:], enc) {
				t.Fatalf("appendValues with a prefix wrote %x, want %x after it", pre, enc)
			}
		})
	}
}

func TestDecodeValuesNoAlias(t *testing.T) {
	enc := appendValues(nil, []any{[]byte("abc")})
	got, err := decodeValues(enc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range enc {
		enc[i] = 0
	}
	if string(got[0].([]byte)) != "abc" {
		t.Fatalf("decoded []byte aliases the encoding: %q", got[0])
	}
}

func TestDecodeValuesMalformed(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
	}{
		{"unknown kind", []byte{kUint64 + 1, 0, 0, 0, 0, 0, 0, 0, 0}},
		{"kind 255", []byte{255}},
		{"bytes without length", []byte{kBytes}},
		{"string without length", []byte{kString}},
		{"bytes length too long", []byte{kBytes, 5, 'a', 'b'}},
		{"string length too long", []byte{kString, 1}},
		{"unterminated uvarint", []byte{kBytes, 0x80, 0x80}},
		{"uvarint overflow", []byte{kString, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
		{"huge length", []byte{kBytes, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 'x'}},
		{"bool without byte", []byte{kBool}},
		{"short int", []byte{kInt, 1, 2, 3}},
		{"short float64", []byte{kFloat64, 0, 0, 0, 0, 0, 0, 0}},
		{"truncated second value", append(appendValues(nil, []any{"ok"}), kUint32, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeValues(tt.in)
			if err == nil {
				t.Fatalf("decodeValues(%x) = %#v, want an error", tt.in, got)
			}
		})
	}
}

func TestCloneValues(t *testing.T) {
	orig := []any{[]byte("xyz"), "s", 3}
	c := cloneValues(orig)
	c[0].([]byte)[0] = 'Q'
	if string(orig[0].([]byte)) != "xyz" {
		t.Fatalf("cloneValues aliases []byte: original became %q", orig[0])
	}
	if !sameValues(c[1:], orig[1:]) {
		t.Fatalf("cloneValues changed non-slice values: %#v", c)
	}
}

func TestZeroValues(t *testing.T) {
	types := []reflect.Type{reflect.TypeFor[[]byte](), reflect.TypeFor[string](), reflect.TypeFor[int16](),
		reflect.TypeFor[float32](), reflect.TypeFor[bool]()}
	got := zeroValues(types)
	want := []any{[]byte{}, "", int16(0), float32(0), false}
	if !sameValues(got, want) {
		t.Fatalf("zeroValues = %#v, want %#v", got, want)
	}
	// The zero input must survive the wire encoding.
	if dec, err := decodeValues(appendValues(nil, got)); err != nil || !sameValues(dec, want) {
		t.Fatalf("zero values round trip: %#v, %v", dec, err)
	}
}

func TestValuesSize(t *testing.T) {
	tests := []struct {
		vals []any
		want int
	}{
		{nil, 0},
		{[]any{[]byte("abc"), "de"}, 5},
		{[]any{1, true, 2.0}, 3},
		{[]any{[]byte{}, "", uint8(1)}, 1},
	}
	for _, tt := range tests {
		if got := valuesSize(tt.vals); got != tt.want {
			t.Errorf("valuesSize(%#v) = %d, want %d", tt.vals, got, tt.want)
		}
	}
}

// FuzzDecodeValues checks that decoding arbitrary bytes never panics and that
// whatever decodes re-encodes to an encoding decoding to the same values.
func FuzzDecodeValues(f *testing.F) {
	f.Add(appendValues(nil, []any{[]byte("seed"), "s", true, int8(-3), uint64(1 << 63), 1.5, float32(-2)}))
	f.Add(appendValues(nil, []any{math.Float64frombits(0x7ff0_0000_0000_0001)}))
	f.Add([]byte{kBytes, 0x80, 0x00})   // non-minimal uvarint
	f.Add([]byte{kBool, 7})             // non-canonical bool
	f.Add([]byte{kString, 3, 'a', 'b'}) // truncated
	f.Fuzz(func(t *testing.T, b []byte) {
		vals, err := decodeValues(b)
		if err != nil {
			return
		}
		enc := appendValues(nil, vals)
		again, err := decodeValues(enc)
		if err != nil {
			t.Fatalf("re-encoding %#v gave undecodable %x: %v", vals, enc, err)
		}
		if !sameValues(again, vals) {
			t.Fatalf("round trip changed %#v to %#v", vals, again)
		}
		if enc2 := appendValues(nil, again); !bytes.Equal(enc2, enc) {
			t.Fatalf("encoding is not stable: %x then %x", enc, enc2)
		}
	})
}

func TestChangedBytesArg(t *testing.T) {
	vals := []any{"s", []byte("ab"), true, int16(-3), []byte("cd")}
	enc := appendValues(nil, vals)
	if i := changedBytesArg(enc, vals); i != 0 {
		t.Errorf("unchanged values: %d", i)
	}
	vals[4].([]byte)[1] = 'x'
	if i := changedBytesArg(enc, vals); i != 5 {
		t.Errorf("fifth argument changed: got %d", i)
	}
	vals[1].([]byte)[0] = 'x'
	if i := changedBytesArg(enc, vals); i != 2 {
		t.Errorf("second and fifth changed: got %d, want the first, 2", i)
	}
	if i := changedBytesArg(enc[:3], vals); i != 0 {
		t.Errorf("truncated encoding: got %d", i)
	}
}

// TestReplayCaps: the bytes an execution gets have the capacity go test's
// []byte(s) gives the same bytes, whatever buffer the mutant was in.
func TestReplayCaps(t *testing.T) {
	for _, n := range []int{0, 1, 5, 9, 17, 100, 1000} {
		want := cap(goTestBytes(string(make([]byte, n))))
		for _, b := range [][]byte{make([]byte, n), make([]byte, n, 4*n+64)} {
			vals := []any{b, "x"}
			replayCaps(vals)
			got := vals[0].([]byte)
			if len(got) != n || (n > 0 && cap(got) != want) || got == nil {
				t.Errorf("len %d in a buffer of %d: got len %d cap %d (nil %v), want cap %d", n, cap(b), len(got), cap(got), got == nil, want)
			}
		}
	}
	vals := []any{[]byte(nil)}
	replayCaps(vals)
	if got := vals[0].([]byte); got == nil || cap(got) != cap(goTestBytes("")) {
		t.Errorf("nil: got %#v (cap %d), want an empty non-nil slice of cap %d as go test's []byte(\"\")", got, cap(got), cap(goTestBytes("")))
	}
}

// goTestBytes is how go test makes a []byte argument from a corpus file's
// string (internal/fuzz's parseCorpusValue): a conversion whose result
// escapes to the heap.
//
//go:noinline
func goTestBytes(s string) []byte { return []byte(s) }

// BenchmarkReplayCaps: the cost per execution of one 64-byte argument.
func BenchmarkReplayCaps(b *testing.B) {
	for _, c := range []int{64, 256} {
		b.Run("cap"+strconv.Itoa(c), func(b *testing.B) {
			buf := make([]byte, 64, c)
			vals := []any{buf, "x"}
			for b.Loop() {
				vals[0] = buf
				replayCaps(vals)
			}
		})
	}
}
