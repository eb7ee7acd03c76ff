package engine

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/engine/instrument"
)

// BenchmarkSubstitutions derives the substitutions of one traced execution
// of a JSON-like parser: a document and a path (two string arguments), the
// character tests a tokenizer makes on each distinct byte (1-byte
// comparisons with a dozen constants), a few lengths and bounds, and string
// comparisons of keys. The worker does this for every traced base and fix-up
// candidate.
func BenchmarkSubstitutions(b *testing.B) {
	doc := `{"name":{"first":"Tom","last":"Anderson"},"age":37,"children":["Sara","Alex","Jack"],"fav.movie":"Deer Hunter"}`
	vals := []any{doc, "children.#(age>45).first|@reverse"}
	var tr cmpTrace
	for c := 0; c < 256 && len(tr.ints) < instrument.MaxIntCmps; c++ {
		for i, k := range []byte(`{}[]":,.#|@\`) {
			tr.ints = append(tr.ints, instrument.IntCmp{A: uint64(c), B: uint64(k), Size: 1, Const: true, Site: uint32(i)})
		}
	}
	for n := uint64(0); n < 40; n++ {
		tr.ints = append(tr.ints, instrument.IntCmp{A: n, B: n + 100, Size: 8, Site: 99})
	}
	for _, k := range []string{"name", "first", "age", "children", "reverse", "pretty"} {
		tr.strs = append(tr.strs, [2]string{k + "x", k})
		tr.fold = append(tr.fold, false)
		tr.site = append(tr.site, 7)
	}
	b.Run("fresh", func(b *testing.B) { // a traced base: the substitutions are kept
		b.ReportAllocs()
		for b.Loop() {
			if len(tr.substitutions(vals)) == 0 {
				b.Fatal("no substitutions")
			}
		}
	})
	b.Run("reused", func(b *testing.B) { // a fix-up: the worker's buffer
		b.ReportAllocs()
		var subs []cmpSub
		for b.Loop() {
			if subs = tr.appendSubstitutions(subs, vals); len(subs) == 0 {
				b.Fatal("no substitutions")
			}
		}
	})
}

// TestSubstitutionsReuseAllocs: a fix-up's substitutions, into the worker's
// buffer, allocate nothing for a trace of byte comparisons (a tokenizer's):
// byteIntSubs formats a number in a local array and shares the text of
// values below 256. A from that aliased that array once made it escape: an
// allocation per comparison, 3,956 per call of BenchmarkSubstitutions.
func TestSubstitutionsReuseAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	vals := []any{`{"age":1037,"n":[300,301,"x"]}`}
	var tr cmpTrace
	for c := 0; c < 128; c++ {
		tr.ints = append(tr.ints, instrument.IntCmp{A: uint64(c), B: uint64('"'), Size: 1, Const: true, Site: 1})
	}
	var subs []cmpSub
	subs = tr.appendSubstitutions(subs, vals) // the buffer grows once
	if len(subs) == 0 {
		t.Fatal("no substitutions")
	}
	if n := testing.AllocsPerRun(100, func() { subs = tr.appendSubstitutions(subs[:0], vals) }); n > 0 {
		t.Errorf("%v allocations per call, want none", n)
	}
}
