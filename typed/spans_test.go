package typed

import (
	"bytes"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"testing"

	"github.com/fuzzbox/fuzzbox/internal/typedhook"
)

// spanTarget has every kind the span mutations handle, nested, and a map
// (which they leave to the tree) and a recursive pointer.
type spanTarget struct {
	N     int16
	F     float64
	Z     complex128
	On    bool
	S     string
	B     []byte
	Arr   [2]uint32
	Hash  [4]byte
	Ops   []op
	Deep  [][]int8
	Ptr   *op
	Next  *spanTarget
	Addr  netip.Addr
	Names map[string]uint8
	empty struct{}
}

func spanInputs(t *testing.T, r *rand.Rand, n int) [][]byte {
	t.Helper()
	var out [][]byte
	for range n {
		b := make([]byte, r.IntN(200))
		for i := range b {
			b[i] = byte(r.IntN(256))
			if r.IntN(2) == 0 {
				b[i] &= 7
			}
		}
		var v spanTarget
		var ops []op
		Decode(b, &v, &ops)
		out = append(out, enc(t, v, ops))
	}
	return out
}

// TestLayoutSpans: every span's bytes are the canonical encoding of the
// value they decode to, at the span's depth, and its body follows its
// prefix.
func TestLayoutSpans(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, v spanTarget, ops []op) {})
	r := rand.New(rand.NewPCG(7, 8))
	for _, in := range spanInputs(t, r, 300) {
		l := h.newLayout(in)
		if l == nil {
			t.Fatalf("no layout for %x", in)
		}
		if !bytes.Equal(l.canon, in) {
			t.Fatalf("canonical input %x has layout encoding %x", in, l.canon)
		}
		for i, sp := range l.spans {
			if sp.at > sp.body || sp.body > sp.end || sp.end > len(l.canon) {
				t.Fatalf("span %d of %x: at %d body %d end %d", i, in, sp.at, sp.body, sp.end)
			}
			if sp.up >= 0 {
				if up := l.spans[sp.up]; sp.at < up.body || sp.end > up.end {
					t.Fatalf("span %d [%d,%d) is not inside its parent [%d,%d)", i, sp.at, sp.end, up.body, up.end)
				}
			}
			d := decoder{b: l.canon[sp.at:sp.end], depth: int(sp.depth)}
			v := reflect.New(sp.c.t).Elem()
			d.decode(sp.c, v)
			e := encoder{depth: int(sp.depth)}
			if err := e.encode(sp.c, v); err != nil || len(d.b) != 0 || !bytes.Equal(e.b, l.canon[sp.at:sp.end]) {
				t.Fatalf("span %d (%v) of %x: bytes %x re-encode to %x (%v, %d left)", i, sp.c.t, in, l.canon[sp.at:sp.end], e.b, err, len(d.b))
			}
		}
	}
}

// TestSpanMutantsCanonical: mutants made through spans are canonical
// encodings (decoding and encoding them again gives them back), so the
// corpus holds what values print as, and every kind of change happens.
func TestSpanMutantsCanonical(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, v spanTarget, ops []op) {})
	r := rand.New(rand.NewPCG(9, 10))
	inputs := spanInputs(t, r, 100)
	hints := &typedhook.Hints{
		Ints: []typedhook.IntCmp{{A: 3, B: 0x5eed, Size: 2}, {A: 1, B: 4, Size: 8}},
		Strs: [][2]string{{"", "admin"}},
	}
	var spanMade, changedLen, changedOps int
	for i := range 20000 {
		base := inputs[i/200]
		l := h.layoutOf(base)
		s := spanMutation{mutation: mutation{r: r, splice: inputs[:5], hints: hints}, h: h, l: l}
		out, ok := l.mutate(&s)
		if !ok || out == nil {
			continue
		}
		spanMade++
		var v spanTarget
		var ops []op
		Decode(out, &v, &ops)
		again := enc(t, v, ops)
		if !bytes.Equal(again, out) {
			t.Fatalf("mutant of %x is not canonical:\n got %x\nre-encoded %x", base, out, again)
		}
		if len(out) != len(base) {
			changedLen++
		}
		var bv spanTarget
		var bops []op
		Decode(base, &bv, &bops)
		if len(bops) != len(ops) || len(bv.Ops) != len(v.Ops) {
			changedOps++
		}
	}
	if spanMade < 15000 || changedLen == 0 || changedOps == 0 {
		t.Errorf("of 20000 mutations, %d made through spans, %d changed the length, %d the number of operations", spanMade, changedLen, changedOps)
	}
}

// TestSpanMutationMaps: a step that picks a map hands the mutant to the
// tree, so maps still change.
func TestSpanMutationMaps(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, m map[string]uint8) {})
	base := enc(t, map[string]uint8{"a": 1})
	r := rand.New(rand.NewPCG(11, 12))
	for range 200 {
		var m map[string]uint8
		Decode(h.Mutate(base, r, nil, nil), &m)
		if len(m) != 1 {
			return
		}
	}
	t.Error("200 mutations never changed the map's size")
}
