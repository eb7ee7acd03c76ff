package engine

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestShrink(t *testing.T) {
	tests := []struct {
		name  string
		in    []any
		fails func(v []any) bool
		want  []any
	}{
		{"bytes to minimal substring", []any{[]byte("aaaaXaaaaYaaaa")},
			func(v []any) bool { return bytes.Contains(v[0].([]byte), []byte("XaaaaY")) },
			[]any{[]byte("XaaaaY")}},
		{"bytes to minimal length, printable", []any{bytes.Repeat([]byte{0xff}, 100)},
			func(v []any) bool { return len(v[0].([]byte)) >= 10 },
			[]any{[]byte("0000000000")}},
		{"bytes needing a byte kept", []any{[]byte("\x00\x01\x02\xfe")},
			func(v []any) bool { return bytes.IndexByte(v[0].([]byte), 0xfe) >= 0 },
			[]any{[]byte{0xfe}}},
		{"string", []any{"hello, world"},
			func(v []any) bool { return strings.Count(v[0].(string), "o") >= 2 },
			[]any{"oo"}},
		{"string to empty", []any{"anything"}, func([]any) bool { return true }, []any{""}},
		{"int to zero", []any{int(123456)}, func([]any) bool { return true }, []any{int(0)}},
		{"int lower bound", []any{int(123456)}, func(v []any) bool { return v[0].(int) >= 1000 }, []any{int(1000)}},
		{"int not a power of two", []any{int64(99999)}, func(v []any) bool { return v[0].(int64) >= 777 }, []any{int64(777)}},
		{"negative int upper bound", []any{int(-123456)}, func(v []any) bool { return v[0].(int) <= -1000 }, []any{int(-1000)}},
		{"int8 negative", []any{int8(-128)}, func(v []any) bool { return v[0].(int8) < -5 }, []any{int8(-6)}},
		{"uint8", []any{uint8(255)}, func(v []any) bool { return v[0].(uint8) > 200 }, []any{uint8(201)}},
		{"uint64 max", []any{uint64(math.MaxUint64)}, func(v []any) bool { return v[0].(uint64) > 1<<40 }, []any{uint64(1<<40 + 1)}},
		{"int odd", []any{int32(1001)}, func(v []any) bool { return v[0].(int32)%2 == 1 }, []any{int32(1)}},
		{"float to zero", []any{123.456}, func([]any) bool { return true }, []any{0.0}},
		{"float to integral", []any{1234.567}, func(v []any) bool { return v[0].(float64) > 2.5 }, []any{1234.0}},
		{"negative zero", []any{math.Copysign(0, -1)}, func([]any) bool { return true }, []any{0.0}},
		{"float32", []any{float32(-7.75)}, func(v []any) bool { return v[0].(float32) < -1 }, []any{float32(-7)}},
		{"nan stays", []any{math.NaN()}, func(v []any) bool { return math.IsNaN(v[0].(float64)) }, []any{math.NaN()}},
		{"bool to false", []any{true}, func([]any) bool { return true }, []any{false}},
		{"bool kept", []any{true}, func(v []any) bool { return v[0].(bool) }, []any{true}},
		{"several args", []any{int(5000), "hello world", true, []byte("zzz")},
			func(v []any) bool { return v[0].(int) >= 1000 && strings.Contains(v[1].(string), "w") },
			[]any{int(1000), "w", false, []byte{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.fails(tt.in) {
				t.Fatal("bad test: the input does not fail")
			}
			calls := 0
			got, smaller := shrink(tt.in, func(v []any) bool {
				calls++
				return tt.fails(v)
			})
			if !sameValues(got, tt.want) {
				t.Errorf("shrink(%#v) = %#v, want %#v (%d calls)", tt.in, got, tt.want, calls)
			}
			if wantSmaller := !sameValues(tt.in, tt.want); smaller != wantSmaller {
				t.Errorf("smaller = %v, want %v", smaller, wantSmaller)
			}
			if !tt.fails(got) {
				t.Errorf("the result %#v does not fail", got)
			}
		})
	}
}

// TestShrinkOnlyKeptCandidates: the result is always a candidate keep
// accepted (or the input), shrink does not modify the input nor a candidate
// after keep saw it, and when keep's budget runs out shrink stops soon.
func TestShrinkBudget(t *testing.T) {
	in := []any{bytes.Repeat([]byte("ab"), 200), int64(1 << 40), "some string"}
	orig := appendValues(nil, in)
	for _, budget := range []int{0, 1, 5, 50} {
		calls, accepted := 0, 0
		var last []byte
		var seen [][2][]byte // candidate encodings as keep saw them, and the candidates
		got, smaller := shrink(in, func(v []any) bool {
			calls++
			seen = append(seen, [2][]byte{appendValues(nil, v), nil})
			if accepted >= budget {
				return false
			}
			accepted++
			last = appendValues(nil, v)
			return true
		})
		if smaller != (accepted > 0) {
			t.Errorf("budget %d: smaller = %v with %d accepted", budget, smaller, accepted)
		}
		if accepted > 0 && !bytes.Equal(appendValues(nil, got), last) {
			t.Errorf("budget %d: result %#v is not the last accepted candidate", budget, got)
		}
		if accepted == 0 && !bytes.Equal(appendValues(nil, got), orig) {
			t.Errorf("budget %d: nothing accepted but the result %#v differs from the input", budget, got)
		}
		if !bytes.Equal(appendValues(nil, in), orig) {
			t.Fatalf("budget %d: shrink modified its input", budget)
		}
		// Once keep refuses everything, one more pass over the values at
		// most: a few tries per byte and per number.
		if extra, bound := calls-accepted, 3*valuesSize(in)+200; extra > bound {
			t.Errorf("budget %d: %d calls after the budget ran out (bound %d)", budget, extra, bound)
		}
	}
}

func TestShrinkCandidatesNotRetained(t *testing.T) {
	in := []any{[]byte("\x01\x02\x03abc\x04")}
	var kept [][]byte
	var copies [][]byte
	shrink(in, func(v []any) bool {
		b := v[0].([]byte)
		kept, copies = append(kept, b), append(copies, append([]byte(nil), b...))
		return bytes.Contains(b, []byte("b"))
	})
	for i := range kept {
		if !bytes.Equal(kept[i], copies[i]) {
			t.Fatalf("candidate %d changed after keep returned: %q, was %q", i, kept[i], copies[i])
		}
	}
}
