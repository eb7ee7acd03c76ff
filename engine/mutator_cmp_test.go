package engine

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/engine/instrument"
)

// TestPickBySite: the fix-up draws comparison sites uniformly, so a site
// with one substitution is drawn as often as a loop site with fifty.
func TestPickBySite(t *testing.T) {
	var subs []cmpSub
	for i := range 50 {
		subs = append(subs, cmpSub{arg: 0, at: i, site: 7}) // fmt's '%' loop
	}
	subs = append(subs, cmpSub{arg: 0, at: atResize, lenFrom: 9, lenTo: 64, site: 3}) // the check that failed
	m := newMutator(1, 64)
	hits := 0
	const n = 4000
	for range n {
		if subs[m.pickBySite(subs)].site == 3 {
			hits++
		}
	}
	if hits < n*2/5 || hits > n*3/5 {
		t.Errorf("the lone site was drawn %d times in %d, want about half", hits, n)
	}
	// Another slice is grouped anew, even at the same length.
	other := make([]cmpSub, len(subs))
	for i := range other {
		other[i] = cmpSub{site: int64(i)}
	}
	seen := map[int]bool{}
	for range 2000 {
		seen[m.pickBySite(other)] = true
	}
	if len(seen) != len(other) {
		t.Errorf("drew %d of %d single-substitution sites", len(seen), len(other))
	}
}

// TestSubstitutionsCarrySites: each substitution names the comparison it
// came from.
func TestSubstitutionsCarrySites(t *testing.T) {
	tr := &cmpTrace{
		ints: []instrument.IntCmp{{A: 7, B: 9, Size: 8, Site: 42}},
		strs: [][2]string{{"x", "y"}, {"ab", "cd"}},
		fold: []bool{false, false},
		site: []uint32{4, 5},
	}
	for _, s := range tr.substitutions([]any{7, "ab"}) {
		want := int64(42)
		if s.arg == 1 {
			want = strSite + 5 // the second string comparison
		}
		if s.site != want {
			t.Errorf("substitution %+v: site %d, want %d", s, s.site, want)
		}
	}
}

// TestTraceMutant: every 32nd execution is traced, and about one in 8
// mutants whose substitution replaced or resized a whole argument;
// substitutions inside a string are not traced more.
func TestTraceMutant(t *testing.T) {
	vals := []any{"a tomatoz", 3}
	tr := &cmpTrace{
		ints: []instrument.IntCmp{{A: 3, B: 0x5eed, Size: 8, Const: true, Site: 1}},
		strs: [][2]string{{"tomatoz", "tomatos"}}, fold: []bool{false}, site: []uint32{2},
	}
	m := newMutator(5, 64)
	m.cmp = tr.substitutions(vals)
	whole, inside, traced := 0, 0, 0
	for i := range 8000 {
		v := cloneValues(vals)
		m.mutate(v)
		switch {
		case v[0] == "a tomatos":
			inside++
			if m.cmpMutant {
				t.Fatal("a substitution inside the string counts as a whole-value one")
			}
		case m.cmpMutant:
			whole++
			if v[1] != 0x5eed && v[1] != 0x5eee && v[1] != 0x5eec {
				t.Fatalf("a whole-value substitution made %v", v)
			}
			if i&31 != 31 && m.traceMutant(int64(i)) {
				traced++
			}
		}
		if i&31 == 31 && !m.traceMutant(int64(i)) {
			t.Fatalf("execution %d not traced", i)
		}
	}
	if whole < 700 || inside < 300 {
		t.Errorf("%d whole-value and %d in-string substitution mutants in 8000", whole, inside)
	}
	if want := whole / 8; traced < want/2 || traced > want*2 {
		t.Errorf("%d of %d whole-value substitution mutants traced, want about %d", traced, whole, want)
	}
	m.cmp = nil
	m.mutate(vals)
	if m.cmpMutant || m.traceMutant(0) {
		t.Error("a mutant without substitutions counts as one, or execution 0 is traced")
	}
}

// TestPickBySiteNewFirst: the fix-up prefers the sites the base input's
// trace did not have: the checks the mutation newly reached.
func TestPickBySiteNewFirst(t *testing.T) {
	m := newMutator(3, 64)
	m.cmp = []cmpSub{{arg: 1, at: -1, ival: 1, site: 7}} // the base's trace had site 7
	subs := []cmpSub{{arg: 1, at: -1, ival: 2, site: 7}, {arg: 0, at: atResize, lenFrom: 9, lenTo: 64, site: 3}}
	hits := 0
	const n = 4000
	for range n {
		if subs[m.pickBySite(subs)].site == 3 {
			hits++
		}
	}
	if want := n * 7 / 8; hits < want-200 || hits > want+200 {
		t.Errorf("the new site was drawn %d times in %d, want about %d", hits, n, want)
	}
}

// TestApplyCmpInserts checks that a substitution inside a string is applied
// both ways: replacing the compared byte and inserting the other operand
// before it, and that the insertion keeps every byte of the input.
func TestApplyCmpInserts(t *testing.T) {
	vals := []any{"#.a|x"}
	tr := &cmpTrace{ints: []instrument.IntCmp{{A: '{', B: 'a', Size: 1, Const: true}}}
	m := newMutator(7, 100)
	m.cmp = tr.substitutions(vals)
	if len(m.cmp) == 0 {
		t.Fatal("no substitution for a 1-byte comparison of 'a' with '{'")
	}
	got := map[string]int{}
	for range 300 {
		cand := cloneValues(vals)
		if m.applyCmp(cand) {
			got[cand[0].(string)]++
		}
	}
	if got["#.{|x"] == 0 || got["#.{a|x"] == 0 {
		t.Fatalf("applyCmp made %v, want both #.{|x (replaced) and #.{a|x (inserted)", got)
	}
	if n := got["#.{a|x"]; n > got["#.{|x"] {
		t.Errorf("inserted %d times, replaced %d: insertion should be the rarer", n, got["#.{|x"])
	}
	for s := range got {
		if s != "#.{|x" && s != "#.{a|x" {
			t.Errorf("applyCmp made %q from %q", s, vals[0])
		}
	}
}
