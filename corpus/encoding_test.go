package corpus

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestUnmarshalTable(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.desc, func(t *testing.T) {
			vals, err := Unmarshal([]byte(tc.in))
			if tc.reject {
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("Unmarshal = %v, %v; want a *SyntaxError", vals, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Unmarshal: %v", err)
			}
			got, err := Marshal(vals...)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			want := tc.want
			if want == "" {
				want = tc.in
			}
			if string(got) != want {
				t.Errorf("Marshal(Unmarshal(in)):\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestSyntaxErrorLine(t *testing.T) {
	for _, tc := range []struct {
		in       string
		line     int
		contains string
	}{
		{"", 1, "empty file"},
		{"go test fuzz v2\nint(1)\n", 1, "header"},
		{h + "int(1)\n\n  int8(300)\n", 4, "out of range"},
		{h + "int(1)\r\nstring(1)\r\n", 3, "string literal"},
		{h + "int(1)\nint((1))\n", 3, "literal"},
		{h + strings.Repeat("int(", 100000) + "\n", 2, "tokens"},
	} {
		_, err := Unmarshal([]byte(tc.in))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != tc.line || !strings.Contains(se.Msg, tc.contains) {
			t.Errorf("Unmarshal(%.40q) = %v; want line %d mentioning %q", tc.in, err, tc.line, tc.contains)
		}
	}
}

func TestMarshalRejects(t *testing.T) {
	type myInt int
	for _, vals := range [][]any{nil, {myInt(1)}, {int(1), complex(1, 2)}, {[]int{1}}, {nil}} {
		if b, err := Marshal(vals...); err == nil {
			t.Errorf("Marshal(%#v) = %q, want error", vals, b)
		}
	}
}

// TestAllBytesAndInt8 round-trips every byte and int8, the types whose
// spellings have the most special cases.
func TestAllBytesAndInt8(t *testing.T) {
	for i := 0; i < 256; i++ {
		assertRoundTrip(t, byte(i), int8(i), rune(i), rune(-i), uint16(i<<8))
	}
}

func TestNaNSpellings(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{math.NaN(), "float64(NaN)"},
		{math.Float64frombits(0x7ff0000000000001), "math.Float64frombits(0x7ff0000000000001)"},
		{float32(math.NaN()), "float32(NaN)"},
		{math.Float32frombits(0x7f800001), "math.Float32frombits(0x7f800001)"},
		{math.Copysign(0, -1), "float64(-0)"},
		{float32(math.Inf(-1)), "float32(-Inf)"},
	} {
		b, err := Marshal(tc.v)
		if err != nil || string(b) != h+tc.want+"\n" {
			t.Errorf("Marshal(%v) = %q, %v; want %q", tc.v, b, err, tc.want)
		}
		assertRoundTrip(t, tc.v)
	}
}

// TestBigFile checks a large canonical []byte entry parses, and that files
// over MaxFileSize are refused before parsing.
func TestBigFile(t *testing.T) {
	raw := make([]byte, 8<<20)
	for i := range raw {
		raw[i] = byte(i * 7)
	}
	data, _ := Marshal(raw)
	vals, err := Unmarshal(data)
	if err != nil || !bytes.Equal(vals[0].([]byte), raw) {
		t.Fatalf("Unmarshal of an 8 MiB entry: %v", err)
	}
	big := append([]byte(h), make([]byte, MaxFileSize)...)
	if _, err := Unmarshal(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("Unmarshal of %d bytes = %v, want size error", len(big), err)
	}
}

func TestHostileInputs(t *testing.T) {
	for name, in := range map[string]string{
		"nul bytes":      h + strings.Repeat("\x00", 1<<20),
		"binary garbage": h + string(garbage(1<<20)),
		"many values":    h + strings.Repeat("int( 1 )\n", MaxValues+1),
		"deep nesting":   h + strings.Repeat("(", 1<<20) + "1",
		"long call":      h + "int(" + strings.Repeat("1,", 1<<20) + ")",
		"no header":      string(garbage(1 << 20)),
	} {
		if _, err := Unmarshal([]byte(in)); err == nil {
			t.Errorf("%s: Unmarshal accepted it", name)
		}
	}
}

func garbage(n int) []byte {
	b := make([]byte, n)
	x := uint32(1)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

func assertRoundTrip(t *testing.T, vals ...any) {
	t.Helper()
	data, err := Marshal(vals...)
	if err != nil {
		t.Fatalf("Marshal(%v): %v", vals, err)
	}
	got, err := Unmarshal(data)
	if err != nil {
		t.Fatalf("Unmarshal(%q): %v", data, err)
	}
	if !sameValues(got, vals) {
		t.Fatalf("round trip of %#v gave %#v (file %q)", vals, got, data)
	}
}

// sameValues compares values exactly: same types, floats bit for bit.
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

func sameValue(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case float32:
		y, ok := b.(float32)
		return ok && math.Float32bits(x) == math.Float32bits(y)
	}
	return reflect.DeepEqual(a, b)
}
