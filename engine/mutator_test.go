package engine

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/engine/instrument"
)

// allTypes is one value of every supported argument type.
func allTypes() []any {
	return []any{[]byte("bytes"), "string", true, float32(1.5), 2.5, int(3), int8(4), int16(5), int32(6),
		int64(7), uint(8), uint8(9), uint16(10), uint32(11), uint64(12)}
}

func TestMutateKeepsTypes(t *testing.T) {
	m := newMutator(1, 64)
	m.dict = [][]byte{[]byte("tok"), {1, 2}, {1, 2, 3, 4}}
	vals := allTypes()
	for n := 0; n < 20000; n++ {
		m.mutate(vals)
		for i, v := range vals {
			if want := reflect.TypeOf(allTypes()[i]); reflect.TypeOf(v) != want {
				t.Fatalf("after %d mutations argument %d is %T, want %v", n+1, i, v, want)
			}
		}
	}
}

func TestMutateRespectsMaxLen(t *testing.T) {
	for _, maxLen := range []int{1, 5, 16} {
		m := newMutator(uint64(maxLen), maxLen)
		m.dict = [][]byte{[]byte("a-long-token-longer-than-max"), []byte("ab")}
		m.splice = [][]any{{bytes.Repeat([]byte("S"), 40), strings.Repeat("s", 40)}}
		vals := []any{bytes.Repeat([]byte("x"), maxLen), strings.Repeat("y", maxLen)}
		for n := 0; n < 20000; n++ {
			m.mutate(vals)
			for i, v := range vals {
				if l := reflect.ValueOf(v).Len(); l > maxLen {
					t.Fatalf("maxLen %d: after %d mutations argument %d has length %d: %q", maxLen, n+1, i, l, v)
				}
			}
		}
	}
}

// TestMutateCmpRespectsMaxLen: a comparison substitution must not make a
// value longer than maxLen either.
func TestMutateCmpRespectsMaxLen(t *testing.T) {
	const maxLen = 8
	vals := []any{[]byte("abc"), "abc"}
	tr := &cmpTrace{strs: [][2]string{{"abc", "a-much-longer-operand"}}, fold: []bool{false}}
	m := newMutator(3, maxLen)
	m.cmp = tr.substitutions(vals)
	if len(m.cmp) == 0 {
		t.Fatal("no substitutions")
	}
	for n := 0; n < 2000; n++ {
		v := cloneValues(vals)
		m.mutate(v)
		for i, x := range v {
			if l := reflect.ValueOf(x).Len(); l > maxLen {
				t.Fatalf("argument %d has length %d > maxLen %d after a mutation: %q", i, l, maxLen, x)
			}
		}
	}
}

func TestMutateChangesSeveralArgs(t *testing.T) {
	m := newMutator(7, 64)
	base := []any{[]byte("aaaa"), "bbbb", int32(100), uint8(5), 1.25, true}
	changedAt := make([]int, len(base))
	multi := 0
	for n := 0; n < 3000; n++ {
		vals := cloneValues(base)
		m.mutate(vals)
		changed := 0
		for i := range vals {
			if !sameValue(vals[i], base[i]) {
				changed++
				changedAt[i]++
			}
		}
		if changed > 1 {
			multi++
		}
	}
	for i, c := range changedAt {
		if c == 0 {
			t.Errorf("argument %d (%T) never changed in 3000 mutations", i, base[i])
		}
	}
	if multi < 100 {
		t.Errorf("only %d of 3000 mutations changed more than one argument", multi)
	}
}

func TestMutateSingleArgAlwaysChanges(t *testing.T) {
	// A mutation of a lone int must nearly always produce a different
	// value; a no-op mutation wastes an execution.
	m := newMutator(11, 64)
	same := 0
	for n := 0; n < 2000; n++ {
		vals := []any{int64(12345)}
		m.mutate(vals)
		if vals[0] == int64(12345) {
			same++
		}
	}
	if same > 100 {
		t.Errorf("%d of 2000 int64 mutations left the value unchanged", same)
	}
}

func TestMutateDeterministic(t *testing.T) {
	run := func() [][]byte {
		m := newMutator(42, 32)
		m.dict = [][]byte{[]byte("DICT")}
		m.splice = [][]any{{[]byte("other input"), "s", 0, 0.0}}
		vals := []any{[]byte("start"), "str", 17, 3.0}
		var out [][]byte
		for range 500 {
			m.mutate(vals)
			out = append(out, appendValues(nil, vals))
		}
		return out
	}
	a, b := run(), run()
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Fatalf("mutation %d differs between two runs with the same seed", i)
		}
	}
	m1, m2 := newMutator(1, 32), newMutator(2, 32)
	v1, v2 := []any{[]byte("same")}, []any{[]byte("same")}
	differ := false
	for range 20 {
		m1.mutate(v1)
		m2.mutate(v2)
		differ = differ || !sameValues(v1, v2)
	}
	if !differ {
		t.Error("different seeds produced the same 20 mutations")
	}
}

func TestMutateIntRange(t *testing.T) {
	interesting := map[int64]bool{}
	for _, pool := range [][]int64{interesting16, interesting32} {
		for _, v := range pool {
			interesting[v] = true
		}
	}
	tests := []struct {
		name string
		zero any
		get  func(any) int64
	}{
		{"int", int(0), func(v any) int64 { return int64(v.(int)) }},
		{"int32", int32(0), func(v any) int64 { return int64(v.(int32)) }},
		{"int64", int64(0), func(v any) int64 { return v.(int64) }},
		{"uint32", uint32(0), func(v any) int64 { return int64(v.(uint32)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMutator(5, 64)
			big, hitInteresting := 0, map[int64]bool{}
			for range 5000 {
				vals := []any{tt.zero}
				m.mutate(vals)
				v := tt.get(vals[0])
				if v > 100 || v < -100 {
					big++
				}
				if interesting[v] && (v > 100 || v < -100) {
					hitInteresting[v] = true
				}
			}
			if big < 500 {
				t.Errorf("only %d of 5000 mutations of 0 left [-100, 100]", big)
			}
			if len(hitInteresting) < 5 {
				t.Errorf("mutations reached only %d interesting values beyond ±100: %v", len(hitInteresting), hitInteresting)
			}
		})
	}
}

func TestMutateNarrowSignedInts(t *testing.T) {
	// Sign extension must keep narrow signed values in range and reach
	// negative values.
	m := newMutator(9, 64)
	neg8, neg16 := false, false
	for range 3000 {
		vals := []any{int8(1), int16(1)}
		m.mutate(vals)
		neg8 = neg8 || vals[0].(int8) < 0
		neg16 = neg16 || vals[1].(int16) < 0
	}
	if !neg8 || !neg16 {
		t.Errorf("negative values never reached: int8 %v, int16 %v", neg8, neg16)
	}
}

func TestMutateFloatsAndBools(t *testing.T) {
	m := newMutator(13, 64)
	seen := map[string]bool{}
	for range 3000 {
		vals := []any{1.0, false}
		m.mutate(vals)
		f := vals[0].(float64)
		switch {
		case math.IsNaN(f):
			seen["nan"] = true
		case math.IsInf(f, 0):
			seen["inf"] = true
		case f != 1 && f == math.Trunc(f):
			seen["integral"] = true
		case f != math.Trunc(f):
			seen["fraction"] = true
		}
		if vals[1].(bool) {
			seen["true"] = true
		}
	}
	for _, k := range []string{"nan", "inf", "integral", "fraction", "true"} {
		if !seen[k] {
			t.Errorf("mutations never produced a %s value", k)
		}
	}
}

func TestMutateInsertsDictTokens(t *testing.T) {
	const tok = "MAGICTOKEN"
	m := newMutator(17, 128)
	m.dict = [][]byte{[]byte(tok)}
	found := 0
	for range 1000 {
		vals := []any{[]byte("aaaaaaaa"), "bbbbbbbb"}
		m.mutate(vals)
		if bytes.Contains(vals[0].([]byte), []byte(tok)) || strings.Contains(vals[1].(string), tok) {
			found++
		}
	}
	if found < 50 {
		t.Errorf("the dictionary token appeared in %d of 1000 mutations", found)
	}
}

// TestMutateASCIIIntegers: numbers written in decimal are changed as
// numbers, in place: 41 becomes 40, 42, 20 or 82 among others.
func TestMutateASCIIIntegers(t *testing.T) {
	m := newMutator(23, 128)
	seen := map[string]bool{}
	for range 20000 {
		vals := []any{[]byte("port=41;")}
		m.mutate(vals)
		seen[string(vals[0].([]byte))] = true
	}
	for _, want := range []string{"port=40;", "port=42;", "port=20;", "port=82;"} {
		if !seen[want] {
			t.Errorf("20000 mutations of %q never gave %q", "port=41;", want)
		}
	}
}

func TestMutateSplices(t *testing.T) {
	m := newMutator(19, 128)
	m.splice = [][]any{{[]byte("ZZZZZZZZZZZZ")}}
	found := false
	for range 2000 {
		vals := []any{[]byte("aaaaaaaa")}
		m.mutate(vals)
		if bytes.Contains(vals[0].([]byte), []byte("ZZZ")) {
			found = true
			break
		}
	}
	if !found {
		t.Error("no mutation spliced in bytes of the other corpus entry")
	}
}

func TestIntCmpSubstitution(t *testing.T) {
	// The target read 4 bytes little-endian at offset 2 and compared them
	// with the magic 0xdeadbeef.
	input := []byte{'x', 'x', 0x01, 0x02, 0x03, 0x04, 'y'}
	tr := &cmpTrace{ints: []instrument.IntCmp{{A: 0xdeadbeef, B: 0x04030201, Size: 4, Const: true}}} // the constant first, as the compiler passes it
	vals := []any{append([]byte(nil), input...)}
	subs := tr.substitutions(vals)
	want := cmpSub{arg: 0, at: 2, from: []byte{1, 2, 3, 4}, to: []byte{0xef, 0xbe, 0xad, 0xde}}
	if len(subs) != 1 || !reflect.DeepEqual(subs[0], want) {
		t.Fatalf("substitutions = %+v, want [%+v]", subs, want)
	}
	// Replaced, or (sometimes) inserted before the bytes compared.
	wantBytes := []byte{'x', 'x', 0xef, 0xbe, 0xad, 0xde, 'y'}
	inserted := []byte{'x', 'x', 0xef, 0xbe, 0xad, 0xde, 0x01, 0x02, 0x03, 0x04, 'y'}
	replaced := false
	for seed := range uint64(16) {
		m := newMutator(seed, 64)
		m.cmp = subs
		v := cloneValues(vals)
		if !m.applyCmp(v) {
			t.Fatal("applyCmp refused its only substitution")
		}
		got := v[0].([]byte)
		replaced = replaced || bytes.Equal(got, wantBytes)
		if !bytes.Equal(got, wantBytes) && !bytes.Equal(got, inserted) {
			t.Fatalf("applyCmp gave %x, want %x (or %x)", got, wantBytes, inserted)
		}
	}
	if !replaced {
		t.Fatalf("applyCmp never gave %x in 16 tries", wantBytes)
	}
	if toks := tr.tokens(); len(toks) != 1 || !bytes.Equal(toks[0], want.to) {
		t.Errorf("tokens() = %x, want the constant operand %x", toks, want.to)
	}
}

func TestIntCmpSubstitutionForms(t *testing.T) {
	tests := []struct {
		name string
		vals []any
		cmp  instrument.IntCmp
		want []any // one of the results applyCmp must be able to produce
	}{
		{"big endian", []any{[]byte{9, 0x12, 0x34}}, instrument.IntCmp{A: 0x1234, B: 0xabcd, Size: 2},
			[]any{[]byte{9, 0xab, 0xcd}}},
		{"decimal text", []any{"n=1234;"}, instrument.IntCmp{A: 1234, B: 777777, Size: 8},
			[]any{"n=777777;"}},
		{"hex text", []any{[]byte("id=ff")}, instrument.IntCmp{A: 0xff, B: 0x1000, Size: 2},
			[]any{[]byte("id=1000")}},
		{"negative decimal", []any{"v=15"}, instrument.IntCmp{A: 15, B: uint64(0xfffffff6), Size: 4},
			[]any{"v=-10"}},
		{"int value", []any{"s", int32(7)}, instrument.IntCmp{A: 7, B: 0x31337, Size: 4},
			[]any{"s", int32(0x31337)}},
		{"int value plus one", []any{uint16(7)}, instrument.IntCmp{A: 7, B: 500, Size: 2},
			[]any{uint16(501)}},
		{"narrow negative operand", []any{int8(3)}, instrument.IntCmp{A: 3, B: 0xfe, Size: 1},
			[]any{int8(-2)}},
		{"reversed operands", []any{uint64(42)}, instrument.IntCmp{A: 1 << 40, B: 42, Size: 8},
			[]any{uint64(1 << 40)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &cmpTrace{ints: []instrument.IntCmp{tt.cmp}}
			if !cmpCanProduce(t, tr, tt.vals, tt.want) {
				t.Errorf("no substitution of %+v turns %#v into %#v", tr.substitutions(tt.vals), tt.vals, tt.want)
			}
		})
	}
}

// cmpCanProduce applies each substitution of tr to a fresh copy of vals and
// reports whether one of them gives want. Each is applied with several
// seeds: applyCmp sometimes inserts instead of replacing.
func cmpCanProduce(t *testing.T, tr *cmpTrace, vals, want []any) bool {
	t.Helper()
	subs := tr.substitutions(vals)
	for _, s := range subs {
		for seed := range uint64(16) {
			m := newMutator(seed, 64)
			m.cmp = []cmpSub{s}
			v := cloneValues(vals)
			if m.applyCmp(v) && sameValues(v, want) {
				return true
			}
		}
	}
	return false
}

func TestStrCmpSubstitution(t *testing.T) {
	tests := []struct {
		name string
		vals []any
		a, b string
		fold bool
		want []any
	}{
		{"whole string", []any{"tomatoz"}, "tomatoz", "tomatos", false, []any{"tomatos"}},
		{"whole bytes", []any{[]byte("tomatoz")}, "tomatoz", "tomatos", false, []any{[]byte("tomatos")}},
		{"operand order", []any{"xyz"}, "tomatos", "xyz", false, []any{"tomatos"}},
		{"inside bytes", []any{[]byte("I like tomatoz a lot")}, "tomatoz", "tomatos", false,
			[]any{[]byte("I like tomatos a lot")}},
		{"different length", []any{[]byte("<ab>")}, "ab", "tomatos", false, []any{[]byte("<tomatos>")}},
		{"prefix completed", []any{"tom"}, "tom", "tomatos", false, []any{"tomatos"}},
		{"second argument", []any{int16(1), "potato"}, "potato", "tomatos", false, []any{int16(1), "tomatos"}},
		{"fold", []any{[]byte("say HELLO!")}, "hello", "world", true, []any{[]byte("say world!")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &cmpTrace{strs: [][2]string{{tt.a, tt.b}}, fold: []bool{tt.fold}}
			if !cmpCanProduce(t, tr, tt.vals, tt.want) {
				t.Errorf("no substitution of %+v turns %#v into %#v", tr.substitutions(tt.vals), tt.vals, tt.want)
			}
		})
	}
}

func TestMutateUsesCmp(t *testing.T) {
	vals := []any{[]byte("tomatoz")}
	tr := &cmpTrace{strs: [][2]string{{"tomatoz", "tomatos"}}, fold: []bool{false}}
	m := newMutator(23, 64)
	m.cmp = tr.substitutions(vals)
	hits := 0
	for range 400 {
		v := cloneValues(vals)
		m.mutate(v)
		if string(v[0].([]byte)) == "tomatos" {
			hits++
		}
	}
	// applyCmp runs in a quarter of the mutations; allow for randomness.
	if hits < 40 {
		t.Errorf("mutate produced the comparison operand %d times in 400", hits)
	}
}

func TestCmpTraceRecordsHooks(t *testing.T) {
	// cmpTrace's callbacks copy what instrument hands them.
	var tr cmpTrace
	var sc instrument.StrCmp
	sc.LenA = uint8(copy(sc.A[:], "abc"))
	sc.LenB = uint8(copy(sc.B[:], "tomatos"))
	sc.Fold = true
	tr.onStr(&sc)
	sc.A[0] = 'Z' // the pointer is only valid during the call

	tr.onInt(instrument.IntCmp{A: 0x0102, B: 0x7777, Size: 2, Const: true}) // A is the constant, B the input's
	tr.onInt(instrument.IntCmp{A: 0x0304, B: 0x0506, Size: 2})              // no constant: no token
	tr.onInt(instrument.IntCmp{A: 2, B: 1, Size: 1, Const: true})           // 1-byte operands are no tokens
	if len(tr.strs) != 1 || tr.strs[0] != [2]string{"abc", "tomatos"} || !tr.fold[0] {
		t.Fatalf("onStr recorded %q fold %v", tr.strs, tr.fold)
	}
	toks := tr.tokens()
	want := [][]byte{{0x02, 0x01}, []byte("abc"), []byte("tomatos")}
	if !reflect.DeepEqual(toks, want) {
		t.Errorf("tokens() = %q, want %q", toks, want)
	}
	tr.reset()
	if len(tr.ints)+len(tr.strs)+len(tr.fold) != 0 || len(tr.tokens()) != 0 {
		t.Error("reset left entries behind")
	}
}

func TestReadWriteInt(t *testing.T) {
	for _, size := range []int{1, 2, 4, 8} {
		for _, big := range []bool{false, true} {
			b := make([]byte, size)
			v := uint64(0x0102030405060708) & (math.MaxUint64 >> (64 - 8*size))
			writeInt(b, size, big, v)
			if got := readInt(b, size, big); got != v {
				t.Errorf("size %d big %v: read %x after writing %x", size, big, got, v)
			}
			if size > 1 && (big != (b[size-1] == 0x08)) {
				t.Errorf("size %d big %v: wrote %x in the wrong byte order", size, big, b)
			}
		}
	}
}
