package engine

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestStrSubsFoldOffsets is issue 8's worker panic: strSubs searched a
// lowered copy of the input for a case-insensitive operand and sliced the
// input at the copy's offsets, which invalid UTF-8 (lowered to the 3-byte
// U+FFFD) and runes whose lower case has another length move.
func TestStrSubsFoldOffsets(t *testing.T) {
	tests := []struct {
		name  string
		input string
		a     string
		want  string // the bytes the substitution replaces; "" for none
	}{
		{"invalid utf8 before the match", "\xff\xffabc", "ABC", "abc"},
		{"reported shape", strings.Repeat("\xc3", 50) + "<html>", "<HTML>", "<html>"},
		{"kelvin sign in the input", "\u212aey", "KEY", "\u212aey"},
		{"kelvin sign in the operand", "xkey", "\u212aEY", "key"},
		{"long s", "\u017fet", "SET", "\u017fet"},
		{"dotted capital I shortens when lowered", "\u0130\u0130x", "X", "x"},
		{"invalid operand byte matches itself", "a\xffb", "A\xffB", "a\xffb"},
		{"invalid operand byte matches no other", "a\xfeb", "A\xffB", ""},
		{"operand longer than input", "ab", "ABC", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range []any{[]byte(tt.input), tt.input} {
				tr := &cmpTrace{strs: [][2]string{{tt.a, "zz"}}, fold: []bool{true}}
				vals := []any{v}
				var froms []string
				for _, s := range tr.substitutions(vals) {
					if s.at >= 0 {
						froms = append(froms, string(s.from))
					}
					checkSubApplies(t, vals, s)
				}
				if tt.want == "" && len(froms) > 0 {
					t.Errorf("%T input: substitutions replace %q, want none", v, froms)
				}
				if tt.want != "" && (len(froms) == 0 || froms[0] != tt.want) {
					t.Errorf("%T input: substitutions replace %q, want %q first", v, froms, tt.want)
				}
			}
		})
	}
}

func TestApplySubRefusesMismatches(t *testing.T) {
	vals := []any{[]byte("abcdef"), int16(3)}
	refused := []cmpSub{
		{arg: 0, at: 1, from: []byte("xx"), to: []byte("yy")}, // other bytes there
		{arg: 0, at: 5, from: []byte("fg"), to: []byte("yy")}, // runs past the end
		{arg: 0, at: 7, from: nil, to: []byte("yy")},          // offset past the end
		{arg: 1, at: -1, ival: int32(4)},                      // another type
		{arg: 1, at: -1, ival: nil},                           // no value
		{arg: 1, at: 0, from: []byte{3}, to: []byte{4}},       // bytes of an integer
		{arg: -1, at: -1, ival: int16(5)},                     // no such argument
		{arg: 2, at: -1, ival: int16(5)},                      // no such argument
	}
	for _, s := range refused {
		cand := cloneValues(vals)
		if applySub(cand, s) || !sameValues(cand, vals) {
			t.Errorf("applySub(%+v) applied or changed %#v to %#v", s, vals, cand)
		}
	}
}

func TestFixUpCandidateRespectsMaxLen(t *testing.T) {
	vals := []any{[]byte("ab")}
	tr := &cmpTrace{strs: [][2]string{{"ab", strings.Repeat("x", 40)}}, fold: []bool{false}}
	subs := tr.substitutions(vals)
	m := newMutator(1, 10)
	for range 20 {
		cand, ok := m.fixUpCandidate(vals, subs)
		if ok || !sameValues(cand, vals) {
			t.Fatalf("fix-up made %q from %q with maxLen 10", cand, vals)
		}
	}
}

// checkSubApplies reports whether s, derived from vals, is well formed
// (its from bytes are where it says) and applies to a copy of vals with
// exactly the effect it describes.
func checkSubApplies(t *testing.T, vals []any, s cmpSub) {
	t.Helper()
	if s.arg < 0 || s.arg >= len(vals) {
		t.Fatalf("substitution %+v for argument %d of %d", s, s.arg, len(vals))
	}
	want := cloneValues(vals)
	switch {
	case s.at == atResize:
		want[s.arg] = wantResized(t, vals[s.arg], s)
	case s.at < 0:
		want[s.arg] = s.ival
	default:
		b, ok := argBytes(vals[s.arg])
		if !ok || s.at > len(b) || len(s.from) > len(b)-s.at || !bytes.Equal(b[s.at:s.at+len(s.from)], s.from) {
			t.Fatalf("substitution %+v does not match argument %d, %q", s, s.arg, vals[s.arg])
		}
		r := append(append(append([]byte(nil), b[:s.at]...), s.to...), b[s.at+len(s.from):]...)
		if _, isStr := vals[s.arg].(string); isStr {
			want[s.arg] = string(r)
		} else {
			want[s.arg] = r
		}
	}
	cand := cloneValues(vals)
	if !applySub(cand, s) {
		t.Fatalf("substitution %+v derived from %#v does not apply to it", s, vals)
	}
	if sameShape(t, "applySub", cand, vals) && !sameValues(cand, want) {
		t.Fatalf("applySub(%+v) gave %#v, want %#v", s, cand, want)
	}
}

// FuzzSubstitutions derives substitutions from arbitrary values and
// comparisons (operands often read from the values themselves) and checks
// that each is where it says, applies exactly, and that the fix-up of a
// traced mutant keeps the argument shape and the length limit.
func FuzzSubstitutions(f *testing.F) {
	html := strings.Repeat("\xc3", 50) + "<html>"
	f.Add(genValues([]byte(html)), genTrace(nil, [][]byte{genStrCmp(genFold, "<HTML>", "<body>")}), uint64(1), uint16(64))
	f.Add(genValues(html, "x"), genTrace(nil, [][]byte{genStrCmp(genFold|genDerive|1<<4, "\x00\x30\x06", "<p>")}), uint64(2), uint16(80))
	f.Add(genValues([]byte("K\u212aey\xff"), int32(7)), genTrace(nil, [][]byte{genStrCmp(genFold, "kKEY\xff", "v")}), uint64(3), uint16(16))
	f.Add(genValues([]byte{1, 2, 3, 4, 5}, uint16(0x0201), int8(-1)), genTrace([][]byte{
		genIntCmp(2, genConst|genDerive, 0x0100, 0xbeef),
		genIntCmp(0xf0, 0, 3, 4), // width 0
		genIntCmp(0xf3, 0, 3, 4), // width 3
		genIntCmp(1, genSwap, 0xff, 0x80),
	}, nil), uint64(4), uint16(8))
	f.Add(genValues("n=1234;", 1.5, true, uint64(math.MaxUint64)), genTrace([][]byte{genIntCmp(3, 0, 1234, math.MaxUint64)},
		[][]byte{genStrCmp(0, "", "abc"), genStrCmp(genSwap, "n=", "")}), uint64(5), uint16(0))
	// Lengths: len(arg 0) against 64 (grows it), len(arg 1) against 2
	// (truncates it), and a 2-byte length against 0xffff (no length).
	f.Add(genValues("rotate:k1", []byte("abcdef"), 24301, true), genTrace([][]byte{
		genIntCmp(3, genDerive, 1<<25|0, 64),
		genIntCmp(3, genDerive|genSwap, 1<<25|1, 2),
		genIntCmp(1, genDerive, 1<<25|1, 0xffff),
	}, nil), uint64(6), uint16(70))
	// An integer argument's decimal form compared with another number.
	f.Add(genValues(int16(-7), uint8(9), "x"), genTrace(nil, [][]byte{
		genStrCmp(genDerive, "\x00\x00\x00", "300"), genStrCmp(genDerive|genSwap, "\x01\x00\x00", "-1"),
	}), uint64(7), uint16(8))
	f.Fuzz(func(t *testing.T, valsIn, traceIn []byte, seed uint64, maxLen uint16) {
		vals := (&fuzzReader{valsIn}).values()
		tr := (&fuzzReader{traceIn}).trace(vals)
		orig := appendValues(nil, vals)
		subs := tr.substitutions(vals)
		if len(subs) > maxCmpSubs {
			t.Fatalf("%d substitutions, more than %d", len(subs), maxCmpSubs)
		}
		for i, s := range subs {
			if i == 256 {
				break // enough for one input; the rest are alike
			}
			checkSubApplies(t, vals, s)
		}
		checkTokens(t, tr)
		if len(subs) > 0 {
			m := newMutator(seed, int(maxLen%600))
			m.cmp = subs[:int(seed%uint64(len(subs)+1))] // some sites are the base's
			checkFixUp(t, vals, subs, m)
		}
		if !bytes.Equal(appendValues(nil, vals), orig) {
			t.Fatalf("deriving or applying substitutions changed the input %x to %x", orig, appendValues(nil, vals))
		}
	})
}

// checkFixUp draws fix-up candidates as the worker does for a traced
// mutant: each has vals' shape, differs in at most one argument, and keeps
// a changed []byte or string within the length limit.
func checkFixUp(t *testing.T, vals []any, subs []cmpSub, m *mutator) {
	t.Helper()
	for range 4 {
		cand, ok := m.fixUpCandidate(vals, subs)
		if !sameShape(t, "fix-up", cand, vals) {
			return
		}
		changed := 0
		for i := range vals {
			if sameValue(cand[i], vals[i]) {
				continue
			}
			changed++
			if n := byteLen(cand[i]); n > m.maxLen {
				t.Fatalf("fix-up made argument %d %d bytes long, limit %d", i, n, m.maxLen)
			}
		}
		if changed > 1 || !ok && changed > 0 {
			t.Fatalf("fix-up (ok %v) changed %d arguments: %#v to %#v", ok, changed, vals, cand)
		}
	}
}

// checkTokens checks the dictionary tokens of a trace: non-empty, at most
// 256, and each an operand (an integer's encoding is at most 8 bytes).
func checkTokens(t *testing.T, tr *cmpTrace) {
	t.Helper()
	toks := tr.tokens()
	if len(toks) > 256 {
		t.Fatalf("%d tokens", len(toks))
	}
	for _, tok := range toks {
		if len(tok) == 0 || len(tok) > 8 && !isStrOperand(tr, string(tok)) {
			t.Fatalf("token %q is no operand of %+v", tok, tr)
		}
	}
}

func isStrOperand(tr *cmpTrace, s string) bool {
	for _, c := range tr.strs {
		if c[0] == s || c[1] == s {
			return true
		}
	}
	return false
}

// FuzzIndexFold checks the case-insensitive search against a simple
// reference (every offset, rune by rune, each pair of runes compared with
// strings.EqualFold, an invalid byte of a only equal to itself) and, for valid
// UTF-8, against strings.EqualFold of the whole match. With plant, an
// ASCII-case-swapped copy of a is put into s first, so a match must exist.
func FuzzIndexFold(f *testing.F) {
	f.Add([]byte(strings.Repeat("\xc3", 50)+"<html>"), "<HTML>", false, uint8(0))
	f.Add([]byte("\xff\xffabc"), "ABC", false, uint8(0))
	f.Add([]byte("x\u212aey K"), "kEY", false, uint8(0))
	f.Add([]byte("\u0130\u0131i"), "I", false, uint8(0))
	f.Add([]byte("\u017f\xff"), "S\xff", true, uint8(3))
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaa"), "AAA", false, uint8(0))
	f.Fuzz(func(t *testing.T, s []byte, a string, plant bool, pos uint8) {
		if plant {
			at := int(pos) % (len(s) + 1)
			s = append(append(append([]byte(nil), s[:at]...), asciiSwapCase(a)...), s[at:]...)
		}
		got := indexFold(s, a)
		want := refIndexFold(s, a)
		if a == "" {
			want = nil // it would match everywhere
		}
		if !sameSpans(got, want) {
			t.Fatalf("indexFold(%q, %q) = %v, reference %v", s, a, got, want)
		}
		for _, sp := range got {
			if m := string(s[sp.at : sp.at+sp.n]); utf8.ValidString(a) && utf8.ValidString(m) && !strings.EqualFold(m, a) {
				t.Fatalf("indexFold(%q, %q) matched %q, which strings.EqualFold refuses", s, a, m)
			}
		}
		if plant && a != "" && len(got) == 0 {
			t.Fatalf("indexFold(%q, %q) found nothing though a case-swapped copy is planted", s, a)
		}
	})
}

func sameSpans(a, b []span) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// refIndexFold is the slow reference for indexFold.
func refIndexFold(s []byte, a string) []span {
	var out []span
	for at := 0; at < len(s) && len(out) < 8; at++ {
		if n, ok := refFoldPrefix(s[at:], a); ok {
			out = append(out, span{at, n})
		}
	}
	return out
}

func refFoldPrefix(s []byte, a string) (int, bool) {
	n := 0
	for len(a) > 0 {
		if n >= len(s) {
			return 0, false
		}
		ra, wa := utf8.DecodeRuneInString(a)
		rs, ws := utf8.DecodeRune(s[n:])
		switch {
		case ra == utf8.RuneError && wa == 1: // invalid in a: that very byte
			if a[0] != s[n] {
				return 0, false
			}
			ws = 1
		case rs == utf8.RuneError && ws == 1, !strings.EqualFold(string(ra), string(rs)):
			return 0, false
		}
		a, n = a[wa:], n+ws
	}
	return n, true
}

// FuzzApplySub applies arbitrary substitutions, not derived from the
// input: applySub and the mutator's bounded form never change the argument
// count or a type, change nothing when they refuse, and when they apply,
// the from bytes were where the substitution said. With fromInput the
// substitution's arg, at and from are taken from the input, so that it
// usually applies.
func FuzzApplySub(f *testing.F) {
	f.Add(genValues([]byte("abcdef"), "xyz"), 0, 2, []byte("cd"), []byte("ZZZZ"), []byte{}, false, uint16(64))
	f.Add(genValues("héllo", int8(-2)), 1, -1, []byte{}, []byte{}, []byte{kInt8, 5}, false, uint16(64))
	f.Add(genValues("héllo", int8(-2)), 1, -1, []byte{}, []byte{}, []byte{kInt16, 5}, false, uint16(64))
	f.Add(genValues([]byte("\xff\xfe")), 0, 1, []byte("\xfe\x00"), []byte("a"), []byte{}, true, uint16(1))
	f.Add(genValues(uint32(9)), -5, 1<<40, []byte("x"), []byte("y"), []byte{}, false, uint16(3))
	f.Add(genValues("rotate:k1", 3), 0, atResize, []byte("123456789"), []byte("0123456789"), []byte{}, false, uint16(64))
	f.Add(genValues([]byte("abc"), 3), 0, atResize, []byte("x"), []byte("0123456789"), []byte{}, true, uint16(8))
	f.Add(genValues(""), 0, atResize, []byte{}, []byte("xy"), []byte{}, true, uint16(64))
	f.Add(genValues(7, "abc"), 0, atResize, []byte("1234567"), []byte("xy"), []byte{}, false, uint16(64))
	f.Add(genValues("abc"), 0, atResize, []byte("123"), []byte("x"), []byte("xyz"), false, uint16(64))
	f.Fuzz(func(t *testing.T, valsIn []byte, arg, at int, from, to, ivalIn []byte, fromInput bool, maxLen uint16) {
		vals := (&fuzzReader{valsIn}).values()
		s := cmpSub{arg: arg, at: at, from: from, to: to}
		if len(ivalIn) > 0 {
			s.ival = (&fuzzReader{ivalIn}).value()
		}
		// A resize takes its lengths from from and to (less ivalIn's, for
		// negative lengths); with fromInput, lenFrom is the argument's.
		s.lenFrom, s.lenTo = len(from), len(to)-len(ivalIn)
		if fromInput && len(vals) > 0 {
			s = subFromInput(vals, s)
		}
		cand := cloneValues(vals)
		ok := applySub(cand, s)
		checkApplied(t, vals, cand, s, ok)
		m := newMutator(1, int(maxLen%600))
		cand = cloneValues(vals)
		ok = m.applyBounded(cand, s)
		checkApplied(t, vals, cand, s, ok)
		if ok && s.arg >= 0 && byteLen(cand[s.arg]) > m.maxLen {
			t.Fatalf("applyBounded made argument %d %d bytes long, limit %d", s.arg, byteLen(cand[s.arg]), m.maxLen)
		}
	})
}

// subFromInput points s at bytes that are in vals: arg and at are reduced
// into range and from becomes the input's bytes there (as long as from was).
func subFromInput(vals []any, s cmpSub) cmpSub {
	s.arg = int(uint(s.arg) % uint(len(vals)))
	b, ok := argBytes(vals[s.arg])
	if !ok {
		return s
	}
	if s.at == atResize {
		s.lenFrom = len(b)
		return s
	}
	s.at = int(uint(s.at) % uint(len(b)+1))
	s.from = append([]byte(nil), b[s.at:s.at+min(len(s.from), len(b)-s.at)]...)
	return s
}

// checkApplied checks the result cand of applying s to a copy of vals.
func checkApplied(t *testing.T, vals, cand []any, s cmpSub, ok bool) {
	t.Helper()
	if !sameShape(t, "applying a substitution", cand, vals) {
		return
	}
	if !ok {
		if !sameValues(cand, vals) {
			t.Fatalf("refused substitution %+v changed %#v to %#v", s, vals, cand)
		}
		return
	}
	switch {
	case s.at >= 0 || s.at == atResize:
		checkSubApplies(t, vals, s) // from (or lenFrom) was in place; the effect is exact
	case !sameValue(cand[s.arg], s.ival):
		t.Fatalf("whole-value substitution %+v gave %#v", s, cand[s.arg])
	}
}

// wantResized is what resizing v as s says gives: v's first s.lenTo bytes,
// or v followed by copies of its last byte ('A' when empty). It reports a
// substitution that does not fit v.
func wantResized(t *testing.T, v any, s cmpSub) any {
	t.Helper()
	b, ok := argBytes(v)
	if !ok || len(b) != s.lenFrom || s.lenTo < 0 || s.lenTo > maxResizeLen {
		t.Fatalf("resize %+v does not fit %#v", s, v)
	}
	r := append([]byte(nil), b[:min(len(b), s.lenTo)]...)
	for len(r) < s.lenTo {
		if len(b) == 0 {
			r = append(r, 'A')
		} else {
			r = append(r, b[len(b)-1])
		}
	}
	if _, isStr := v.(string); isStr {
		return string(r)
	}
	return r
}

// TestASCIIFoldsInASCII checks indexFold's shortcut against the Unicode
// tables: the characters it names have only ASCII case variants.
func TestASCIIFoldsInASCII(t *testing.T) {
	for c := range byte(utf8.RuneSelf) {
		onlyASCII := true
		for r := unicode.SimpleFold(rune(c)); r != rune(c); r = unicode.SimpleFold(r) {
			onlyASCII = onlyASCII && r < utf8.RuneSelf
		}
		if got := asciiFoldsInASCII(c); got != onlyASCII {
			t.Errorf("asciiFoldsInASCII(%q) = %v, want %v", c, got, onlyASCII)
		}
	}
}

// FuzzByteIntSubs checks byteIntSubs, which takes a byte's places from the
// input's index and the text of values below 256 from a table, against a
// reference that searches the input and formats every value, as it did
// before: the same substitutions, in the same order.
func FuzzByteIntSubs(f *testing.F) {
	// width: 0, 1, 2, 3 for 1-, 2-, 4- and 8-byte comparisons.
	f.Add([]byte(`{"a":[1,255,-1]}`), uint64('"'), uint64('{'), uint8(0))
	f.Add([]byte("0x41 65 ff"), uint64(0x41), uint64(0xff), uint8(0))
	f.Add([]byte("n=1234 n=1234"), uint64(1234), uint64(math.MaxUint64), uint8(3))
	f.Add([]byte("\x01\x02\x02\x01 12"), uint64(0x0102), uint64(12), uint8(1))
	f.Add([]byte(strings.Repeat("a", 20)), uint64('a'), uint64(200), uint8(0))
	f.Fuzz(func(t *testing.T, b []byte, a, r uint64, width uint8) {
		sz := []int{1, 2, 4, 8}[width%4]
		var x inputIndex
		x.build(b)
		var got, want []cmpSub
		byteIntSubs(3, b, &x, a, r, sz, func(s cmpSub) { got = append(got, s) })
		refByteIntSubs(3, b, a, r, sz, func(s cmpSub) { want = append(want, s) })
		if len(got) != len(want) {
			t.Fatalf("%d substitutions, want %d:\n%+v\n%+v", len(got), len(want), got, want)
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.arg != w.arg || g.at != w.at || !bytes.Equal(g.from, w.from) || !bytes.Equal(g.to, w.to) {
				t.Fatalf("substitution %d = %+v, want %+v", i, g, w)
			}
		}
	})
}

// refByteIntSubs is byteIntSubs as it was before the index kept places and
// the texts were tabled: it searches b and formats each value.
func refByteIntSubs(arg int, b []byte, a, r uint64, size int, add func(cmpSub)) {
	var ats [8]int
	if size == 1 && bytes.IndexByte(b, byte(a)) >= 0 {
		from, to := []byte{byte(a)}, []byte{byte(r)}
		for _, at := range indexAll(ats[:0], b, from) {
			add(cmpSub{arg: arg, at: at, from: from, to: to})
		}
	}
	var buf [8]byte
	if size >= 2 {
		for _, big := range []bool{false, true} {
			writeInt(buf[:], size, big, a)
			if !bytes.Contains(b, buf[:size]) {
				continue
			}
			from, to := enc(a, size, big), enc(r, size, big)
			for _, at := range indexAll(ats[:0], b, from) {
				add(cmpSub{arg: arg, at: at, from: from, to: to})
			}
		}
	}
	for _, base := range []int{10, 16} {
		probe := strconv.AppendUint(nil, a, base)
		if len(probe) < 2 && size > 1 || !bytes.Contains(b, probe) {
			continue
		}
		toU := []byte(strconv.FormatUint(r, base))
		toS := []byte(strconv.FormatInt(int64(signExtend(r, size)), base))
		for _, at := range indexAll(ats[:0], b, probe) {
			add(cmpSub{arg: arg, at: at, from: probe, to: toU})
			add(cmpSub{arg: arg, at: at, from: probe, to: toS})
		}
	}
}
