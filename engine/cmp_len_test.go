package engine

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/engine/instrument"
)

// TestLenSubstitutions lists, for traced integer comparisons, every
// substitution derived from them: the resizes of len(x) comparisons and
// nothing else for these values.
func TestLenSubstitutions(t *testing.T) {
	resize := func(arg, from, to int, site int64) cmpSub {
		return cmpSub{arg: arg, at: atResize, lenFrom: from, lenTo: to, site: site}
	}
	loop := make([]instrument.IntCmp, 6)
	for i := range loop {
		loop[i] = instrument.IntCmp{A: uint64(i), B: 6, Size: 8, Site: 9} // for i := 0; i < len(s); i++
	}
	tests := []struct {
		name string
		vals []any
		ints []instrument.IntCmp
		want []cmpSub
	}{
		{"width computed from another argument", []any{"rotate:k1", 24301, true},
			[]instrument.IntCmp{{A: 9, B: 64, Size: 8, Site: 1}},
			[]cmpSub{resize(0, 9, 64, 1), resize(0, 9, 65, 1), resize(0, 9, 63, 1)}},
		{"operands either way round, truncation", []any{[]byte("abcdef")},
			[]instrument.IntCmp{{A: 2, B: 6, Size: 8, Const: true, Site: 1}},
			[]cmpSub{resize(0, 6, 2, 1), resize(0, 6, 3, 1), resize(0, 6, 1, 1)}},
		{"to zero: no negative length", []any{"ab"},
			[]instrument.IntCmp{{A: 2, B: 0, Size: 8, Site: 1}},
			[]cmpSub{resize(0, 2, 0, 1), resize(0, 2, 1, 1)}},
		{"empty grows", []any{[]byte{}},
			[]instrument.IntCmp{{A: 0, B: 7, Size: 8, Site: 1}},
			[]cmpSub{resize(0, 0, 7, 1), resize(0, 0, 8, 1), resize(0, 0, 6, 1)}},
		{"32-bit length", []any{"abc"},
			[]instrument.IntCmp{{A: 3, B: 40, Size: 4, Site: 1}},
			[]cmpSub{resize(0, 3, 40, 1), resize(0, 3, 41, 1), resize(0, 3, 39, 1)}},
		{"every argument of that length, each length once", []any{"abc", 5, []byte("xyz")},
			[]instrument.IntCmp{{A: 3, B: 10, Size: 8, Site: 1}, {A: 10, B: 3, Size: 8, Site: 2}, {A: 3, B: 11, Size: 8, Site: 3}},
			[]cmpSub{resize(0, 3, 10, 1), resize(0, 3, 11, 1), resize(0, 3, 9, 1), resize(2, 3, 10, 1), resize(2, 3, 11, 1), resize(2, 3, 9, 1),
				resize(0, 3, 12, 3), resize(2, 3, 12, 3)}},
		{"a loop's bound is no length", []any{"abcdef"}, loop, nil},
		{"negative operand", []any{"abc"}, []instrument.IntCmp{{A: 3, B: 0xffff, Size: 2, Site: 1}}, nil},
		{"too long to be a length", []any{"abc"}, []instrument.IntCmp{{A: 3, B: maxResizeLen + 2, Size: 8, Site: 1}}, nil},
		{"1-byte comparisons are characters", []any{"abc"}, []instrument.IntCmp{{A: 3, B: 9, Size: 1, Site: 1}}, nil},
		{"no []byte or string argument", []any{3, uint8(4)}, []instrument.IntCmp{{A: 9, B: 64, Size: 8, Site: 1}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &cmpTrace{ints: tt.ints}
			var got []cmpSub
			for _, s := range tr.substitutions(tt.vals) {
				if s.at == atResize {
					got = append(got, s)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("resizes:\n got %+v\nwant %+v", got, tt.want)
			}
			for _, s := range tr.substitutions(tt.vals) {
				checkSubApplies(t, tt.vals, s)
			}
		})
	}
}

// TestLenSubstitutionsAlone checks that the coupled target's width check
// gives the resizes and nothing besides.
func TestLenSubstitutionsAlone(t *testing.T) {
	tr := &cmpTrace{ints: []instrument.IntCmp{{A: 9, B: 64, Size: 8, Site: 1}}}
	subs := tr.substitutions([]any{"rotate:k1", 24301, true})
	if len(subs) != 3 {
		t.Errorf("substitutions = %+v, want the 3 resizes only", subs)
	}
}

func TestResizeApplies(t *testing.T) {
	tests := []struct {
		name string
		in   any
		s    cmpSub
		want any // nil: refused
	}{
		{"grow repeats the last byte", "rotate:k1", cmpSub{at: atResize, lenFrom: 9, lenTo: 12}, "rotate:k1111"},
		{"truncate keeps the prefix", []byte("rotate:k1"), cmpSub{at: atResize, lenFrom: 9, lenTo: 7}, []byte("rotate:")},
		{"empty grows with A", "", cmpSub{at: atResize, lenFrom: 0, lenTo: 3}, "AAA"},
		{"to empty", []byte("ab"), cmpSub{at: atResize, lenFrom: 2, lenTo: 0}, []byte{}},
		{"another length", "abc", cmpSub{at: atResize, lenFrom: 4, lenTo: 8}, nil},
		{"negative", "abc", cmpSub{at: atResize, lenFrom: 3, lenTo: -1}, nil},
		{"too long", "abc", cmpSub{at: atResize, lenFrom: 3, lenTo: maxResizeLen + 1}, nil},
		{"an integer", 3, cmpSub{at: atResize, lenFrom: 0, lenTo: 3}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vals := []any{tt.in}
			ok := applySub(vals, tt.s)
			switch {
			case tt.want == nil && (ok || !sameValue(vals[0], tt.in)):
				t.Errorf("applied: %#v", vals[0])
			case tt.want != nil && (!ok || !sameValue(vals[0], tt.want)):
				t.Errorf("got %#v (applied %v), want %#v", vals[0], ok, tt.want)
			}
		})
	}
	m := newMutator(1, 10)
	vals := []any{"abc"}
	if m.applyBounded(vals, cmpSub{at: atResize, lenFrom: 3, lenTo: 11}) || vals[0] != "abc" {
		t.Errorf("applyBounded resized beyond maxLen 10: %q", vals[0])
	}
	if !m.applyBounded(vals, cmpSub{at: atResize, lenFrom: 3, lenTo: 10}) || vals[0] != "abc"+strings.Repeat("c", 7) {
		t.Errorf("applyBounded did not resize to maxLen 10: %q", vals[0])
	}
}

// TestDecimalSubstitutions: a string comparison of an integer argument's
// decimal form (strconv.Itoa(n) == "300") replaces the argument.
func TestDecimalSubstitutions(t *testing.T) {
	tests := []struct {
		name string
		vals []any
		a, b string
		want []cmpSub
	}{
		{"signed", []any{"x", int16(-7)}, "-7", "300",
			[]cmpSub{{arg: 1, at: -1, ival: int16(300), site: strSite}, {arg: 1, at: -1, ival: int16(301), site: strSite}, {arg: 1, at: -1, ival: int16(299), site: strSite}}},
		{"reversed, unsigned, negative operand wraps", []any{uint8(9)}, "-1", "9",
			[]cmpSub{{arg: 0, at: -1, ival: uint8(255), site: strSite}, {arg: 0, at: -1, ival: uint8(0), site: strSite}, {arg: 0, at: -1, ival: uint8(254), site: strSite}}},
		{"large unsigned", []any{uint64(1)}, "1", "18446744073709551615",
			[]cmpSub{{arg: 0, at: -1, ival: uint64(1<<64 - 1), site: strSite}, {arg: 0, at: -1, ival: uint64(0), site: strSite}, {arg: 0, at: -1, ival: uint64(1<<64 - 2), site: strSite}}},
		{"not a number", []any{5}, "5", "five", nil},
		{"another value", []any{5}, "6", "7", nil},
		{"not an integer argument", []any{true, 1.5}, "1", "2", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &cmpTrace{strs: [][2]string{{tt.a, tt.b}}, fold: []bool{false}}
			var got []cmpSub
			for _, s := range tr.substitutions(tt.vals) {
				if s.at == -1 {
					got = append(got, s)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("whole-value substitutions:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestCoupledTwoSteps is the coupled benchmark target's bug reached in two
// substitutions: the base's trace moves the slot to the seed slot it was
// compared with, which breaks the strict width check; the mutant's own
// trace (len(record) 53 against the new width 64) resizes the record.
func TestCoupledTwoSteps(t *testing.T) {
	width := func(slot int) int { return 13 + slot%97 }
	base := []any{"rotate:k1" + strings.Repeat(" ", width(40)-9), 40, true}
	trace := func(vals []any) *cmpTrace { // the comparisons Apply makes that fail
		rec, slot := vals[0].(string), vals[1].(int)
		if len(rec) != width(slot) {
			return &cmpTrace{ints: []instrument.IntCmp{{A: uint64(len(rec)), B: uint64(width(slot)), Size: 8, Site: 1}}}
		}
		return &cmpTrace{ints: []instrument.IntCmp{{A: uint64(slot), B: 0x5eed, Size: 8, Const: true, Site: 2}}}
	}
	bug := func(vals []any) bool {
		return vals[0].(string)[:7] == "rotate:" && vals[1] == 0x5eed && len(vals[0].(string)) == width(0x5eed) && vals[2] == true
	}
	for _, s1 := range trace(base).substitutions(base) {
		mutant := cloneValues(base)
		if !applySub(mutant, s1) || mutant[1] != 0x5eed {
			continue
		}
		for _, s2 := range trace(mutant).substitutions(mutant) {
			fixed := cloneValues(mutant)
			if applySub(fixed, s2) && bug(fixed) {
				return
			}
		}
	}
	t.Error("no two substitutions reach the bug")
}

// TestLenSubstitutionsOneHitSites: a site compared twice in one trace (a
// parser's bound check at two positions) gives no resize.
func TestLenSubstitutionsOneHitSites(t *testing.T) {
	tr := &cmpTrace{ints: []instrument.IntCmp{{A: 2, B: 6, Size: 8, Site: 5}, {A: 4, B: 6, Size: 8, Site: 5}, {A: 6, B: 40, Size: 8, Site: 6}}}
	var got []cmpSub
	for _, s := range tr.substitutions([]any{"abcdef"}) {
		if s.at == atResize {
			got = append(got, s)
		}
	}
	want := []cmpSub{{arg: 0, at: atResize, lenFrom: 6, lenTo: 40, site: 6}, {arg: 0, at: atResize, lenFrom: 6, lenTo: 41, site: 6}, {arg: 0, at: atResize, lenFrom: 6, lenTo: 39, site: 6}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("resizes:\n got %+v\nwant %+v", got, want)
	}
}
