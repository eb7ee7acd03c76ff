package engine

import (
	"bytes"
	"math"
	"testing"
)

// FuzzValuesRoundTrip encodes arbitrary values of every supported type
// (every bit pattern: NaN payloads, -0, extremes) and checks that decoding
// gives them back bit for bit and re-encodes to the same bytes; that an
// encoding appended to another decodes to both lists; that a prefix decodes
// exactly when it ends between values; and that neither decoding nor
// cloneValues aliases its source.
func FuzzValuesRoundTrip(f *testing.F) {
	f.Add(genValues([]byte("seed"), "s", true, int8(-3), uint64(1<<63), 1.5, float32(-2)), genValues(int(-1)))
	f.Add(genValues(math.Float64frombits(0x7ff0_0000_0000_0001), math.Float32frombits(0x7f80_0001),
		math.Copysign(0, -1), float32(math.Copysign(0, -1))), genValues())
	f.Add(genValues(string(bytes.Repeat([]byte{0xff}, 200)), []byte{}, ""), genValues([]byte{0}))
	f.Add(genValues(int16(math.MinInt16), int32(math.MinInt32), int64(math.MinInt64), uint(math.MaxUint), uint8(255),
		uint16(65535), uint32(math.MaxUint32), rune(-1), byte(7)), genValues(false))
	f.Fuzz(func(t *testing.T, valsIn, moreIn []byte) {
		vals := (&fuzzReader{valsIn}).values()
		more := (&fuzzReader{moreIn}).values()
		enc := appendValues(nil, vals)
		dec := decodeOK(t, enc, vals)
		if again := appendValues(nil, dec); !bytes.Equal(again, enc) {
			t.Fatalf("re-encoding %#v gave %x, first %x", dec, again, enc)
		}
		if valuesSize(dec) != valuesSize(vals) {
			t.Fatalf("valuesSize %d after the round trip, %d before", valuesSize(dec), valuesSize(vals))
		}
		both := appendValues(append(make([]byte, 0, len(enc)+1), enc...), more)
		decodeOK(t, both, append(append([]any(nil), vals...), more...))
		checkPrefixes(t, enc, vals)
		checkNoAlias(t, vals, enc, dec)
	})
}

func decodeOK(t *testing.T, enc []byte, want []any) []any {
	t.Helper()
	got, err := decodeValues(enc)
	if err != nil {
		t.Fatalf("decoding the encoding %x of %#v: %v", enc, want, err)
	}
	if len(got) == 0 && len(want) == 0 {
		return got
	}
	if !sameValues(got, want) {
		t.Fatalf("round trip changed %#v to %#v", want, got)
	}
	return got
}

// checkPrefixes decodes the prefixes of enc that end at a value boundary
// (which give the values before it) and one byte short of each (which are
// malformed: every value's encoding ends in a byte it needs).
func checkPrefixes(t *testing.T, enc []byte, vals []any) {
	t.Helper()
	end := 0
	for i, v := range vals {
		end += len(appendValue(nil, v))
		if _, err := decodeValues(enc[:end-1]); err == nil {
			t.Fatalf("the encoding of %#v cut one byte short of value %d decodes", vals, i)
		}
		decodeOK(t, enc[:end], vals[:i+1])
	}
}

// checkNoAlias changes the encoding and a clone: dec and vals must not see
// it.
func checkNoAlias(t *testing.T, vals []any, enc []byte, dec []any) {
	t.Helper()
	snapshot := appendValues(nil, dec)
	for i := range enc {
		enc[i] ^= 0xff
	}
	clone := cloneValues(vals)
	if !sameValues(clone, vals) {
		t.Fatalf("cloneValues(%#v) = %#v", vals, clone)
	}
	for _, v := range clone {
		if b, ok := v.([]byte); ok {
			for i := range b {
				b[i] ^= 0xff
			}
		}
	}
	if !bytes.Equal(appendValues(nil, dec), snapshot) {
		t.Fatal("decoded []byte values alias the encoding")
	}
	if !bytes.Equal(appendValues(nil, vals), snapshot) {
		t.Fatal("cloneValues' []byte values alias the originals")
	}
}
