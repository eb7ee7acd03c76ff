package corpus

import (
	"math"
	"testing"
)

// FuzzRoundTrip: any file Unmarshal accepts prints with Marshal to a file
// that parses to the same values, and printing is then stable.
func FuzzRoundTrip(f *testing.F) {
	for _, tc := range parseCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vals, err := Unmarshal(data)
		if err != nil || len(vals) == 0 {
			return
		}
		out, err := Marshal(vals...)
		if err != nil {
			t.Fatalf("Marshal of parsed values: %v", err)
		}
		again, err := Unmarshal(out)
		if err != nil {
			t.Fatalf("re-parse of %q: %v", out, err)
		}
		if !sameValues(vals, again) {
			t.Fatalf("values changed: %#v -> %q -> %#v", vals, out, again)
		}
		if out2, _ := Marshal(again...); string(out2) != string(out) {
			t.Fatalf("printing not stable: %q then %q", out, out2)
		}
	})
}

// FuzzFastPath: whenever the fast path takes a line, it reads it exactly as
// the go/parser path does (same verdict, same value).
func FuzzFastPath(f *testing.F) {
	for _, s := range []string{"int(1)", "int(01)", "float64(1.5e+07)", "float64(1e)", "byte('\\'')",
		`string("a\"b")`, `string("a")+("b")`, "math.Float64frombits(0x7ff8000000000002)", "int(-0x1f)",
		"float32(-Inf)", "bool(true)", "rune('ab')", `[]byte("\400")`, "uint8(1_0)", "int(1.)", "float64(00.5)"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		typ, arg, ok := parseFast(line)
		if !ok {
			return
		}
		fastV, fastErr := convert(typ, arg)
		styp, sarg, err := parseSlow(line)
		if err != nil {
			t.Fatalf("fast path took %q as %s %+v; go/parser: %v", line, typ, arg, err)
		}
		slowV, slowErr := convert(styp, sarg)
		if (fastErr == nil) != (slowErr == nil) || !sameValue(fastV, slowV) {
			t.Fatalf("%q: fast %#v, %v; slow %#v, %v", line, fastV, fastErr, slowV, slowErr)
		}
	})
}

// FuzzValues: every value of every supported type survives Marshal+Unmarshal
// bit for bit.
func FuzzValues(f *testing.F) {
	f.Add([]byte("\xff\x00"), "\xbd⌘", true, int64(math.MinInt64), uint64(math.MaxUint64), uint64(0x7ff8000000000002), uint32(0x7fc00001), int32(-1))
	f.Add([]byte{}, "", false, int64(0), uint64(0), math.Float64bits(math.Copysign(0, -1)), uint32(0x80000000), int32(0xd800))
	f.Fuzz(func(t *testing.T, b []byte, s string, ok bool, i int64, u uint64, f64 uint64, f32 uint32, r int32) {
		assertRoundTrip(t, b, s, ok, byte(u), r, int(i), int8(i), int16(i), i, uint(u), uint16(u), uint32(u), u,
			math.Float64frombits(f64), math.Float32frombits(f32))
	})
}
