package corpus

import (
	"bytes"
	"encoding/hex"
	"math"
	"reflect"
	"testing"
)

// libFuzzerGolden fixes the v1 encoding: these inputs decode to these values
// in every fuzzbox version (LibFuzzerEncoding is frozen). Change nothing
// here; a new layout needs a new encoding name.
var libFuzzerGolden = []struct {
	desc  string
	types string
	hex   string
	want  []any
}{
	{"one []byte is the raw input", "[]byte", "00ff61", []any{[]byte{0, 0xff, 'a'}}},
	{"one string is the raw input", "string", "746f6d61746f73", []any{"tomatos"}},
	{"empty input, one []byte", "[]byte", "", []any{[]byte{}}},
	{"fixed then tail", "string,int", "3412000000000000" + "6869", []any{"hi", int(0x1234)}},
	{"tail in the middle", "int16,[]byte,bool", "feff" + "01" + "7878", []any{int16(-2), []byte("xx"), true}},
	{"two strings: first length-prefixed", "string,string", "02" + "6162" + "6364", []any{"ab", "cd"}},
	{"length longer than the rest", "string,string", "09" + "6162", []any{"ab", ""}},
	{"overlong uvarint: the rest", "[]byte,string", "ffffffffffffffffffff02" + "0107", []any{[]byte{1, 7}, ""}},
	{"cut-off uvarint: empty", "string,[]byte", "80", []any{"", []byte{}}},
	{"short fixed value keeps its low bytes", "uint32,int64", "010203", []any{uint32(0x030201), int64(0)}},
	{"bool low bit", "bool,bool", "0203", []any{false, true}},
	{"extra bytes ignored without a tail", "int8", "8001", []any{int8(-128)}},
	{"floats as IEEE bits", "float32,float64", "0100807f" + "020000000000f87f", []any{math.Float32frombits(0x7f800001), math.Float64frombits(0x7ff8000000000002)}},
	{"every width", "byte,rune,uint16,uint,uint64", "ff" + "10000000" + "3412" + "0100000000000000" + "ffffffffffffffff", []any{byte(0xff), rune(0x10), uint16(0x1234), uint(1), uint64(math.MaxUint64)}},
}

func TestLibFuzzerGolden(t *testing.T) {
	for _, tc := range libFuzzerGolden {
		types, err := ParseTypes(tc.types)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := hex.DecodeString(tc.hex)
		got, err := DecodeLibFuzzer(data, types)
		if err != nil {
			t.Fatalf("%s: %v", tc.desc, err)
		}
		if !sameLibFuzzerValues(got, tc.want) {
			t.Errorf("%s: decoded %#v, want %#v", tc.desc, got, tc.want)
		}
	}
}

// TestLibFuzzerEncodeCanonical: encoding the golden values gives back the
// golden input wherever that input is canonical.
func TestLibFuzzerEncodeCanonical(t *testing.T) {
	for _, i := range []int{0, 1, 3, 4, 5, 12, 13} {
		tc := libFuzzerGolden[i]
		got, err := EncodeLibFuzzer(tc.want)
		if err != nil {
			t.Fatalf("%s: %v", tc.desc, err)
		}
		if hex.EncodeToString(got) != tc.hex {
			t.Errorf("%s: encoded %x, want %s", tc.desc, got, tc.hex)
		}
	}
}

func TestLibFuzzerUnsupported(t *testing.T) {
	if _, err := EncodeLibFuzzer([]any{complex(1, 2)}); err == nil {
		t.Error("EncodeLibFuzzer accepted a complex128")
	}
	if _, err := DecodeLibFuzzer([]byte("x"), []reflect.Type{reflect.TypeFor[complex64]()}); err == nil {
		t.Error("DecodeLibFuzzer accepted a complex64 type")
	}
}

// FuzzLibFuzzerDecode: decoding is total for any argument list (picked by
// the bytes of sel), yields values of exactly the requested types, and
// encoding those values decodes to them again, bit for bit.
func FuzzLibFuzzerDecode(f *testing.F) {
	f.Add([]byte{1, 6}, []byte("\x05hello\x01\x02"))
	f.Add([]byte{0, 1, 0}, []byte("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01abc"))
	f.Add([]byte{16, 5, 6, 2}, []byte{})
	f.Fuzz(func(t *testing.T, sel, data []byte) {
		types := make([]reflect.Type, 0, len(sel))
		for _, b := range sel[:min(len(sel), 12)] {
			types = append(types, typeNames[int(b)%len(typeNames)].typ)
		}
		vals, err := DecodeLibFuzzer(data, types)
		if err != nil {
			t.Fatalf("decode failed on supported types %v: %v", types, err)
		}
		for i, v := range vals {
			if reflect.TypeOf(v) != types[i] {
				t.Fatalf("value %d is %T, want %v", i, v, types[i])
			}
		}
		roundTrip(t, vals)
	})
}

// FuzzLibFuzzerRoundTrip: values of every supported type, in one argument
// list with two variable-length arguments, survive encode then decode bit
// for bit.
func FuzzLibFuzzerRoundTrip(f *testing.F) {
	f.Add([]byte("a"), "b", true, byte(1), rune(-1), float32(1.5), math.NaN(), -1, int8(-8), int16(-16), int32(-32), int64(-64), uint(1), uint8(8), uint16(16), uint32(32), uint64(64))
	f.Fuzz(func(t *testing.T, b []byte, s string, x bool, y byte, r rune, f32 float32, f64 float64, i int, i8 int8, i16 int16, i32 int32, i64 int64, u uint, u8 uint8, u16 uint16, u32 uint32, u64 uint64) {
		roundTrip(t, []any{b, s, x, y, r, f32, f64, i, i8, i16, i32, i64, u, u8, u16, u32, u64})
		roundTrip(t, []any{s, u16, b})
		roundTrip(t, []any{b})
	})
}

func roundTrip(t *testing.T, vals []any) {
	t.Helper()
	data, err := EncodeLibFuzzer(vals)
	if err != nil {
		t.Fatalf("encode %#v: %v", vals, err)
	}
	types := make([]reflect.Type, len(vals))
	for i, v := range vals {
		types[i] = reflect.TypeOf(v)
	}
	again, err := DecodeLibFuzzer(data, types)
	if err != nil {
		t.Fatalf("decode %x: %v", data, err)
	}
	if !sameLibFuzzerValues(vals, again) {
		t.Fatalf("round trip changed the values: %#v -> %x -> %#v", vals, data, again)
	}
}

// sameLibFuzzerValues compares bit for bit; a nil and an empty []byte are
// the same input.
func sameLibFuzzerValues(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, xok := a[i].([]byte)
		y, yok := b[i].([]byte)
		if xok || yok {
			if !xok || !yok || !bytes.Equal(x, y) {
				return false
			}
			continue
		}
		if !sameValue(a[i], b[i]) {
			return false
		}
	}
	return true
}
