package engine

import (
	"bytes"
	"math"
	"testing"
)

// FuzzMutate mutates arbitrary inputs with an arbitrary dictionary, splice
// partners (of the input's shape or not) and comparison substitutions, the
// way the worker does: rounds alternate between a fresh copy of the base
// input (which the substitutions were derived from) and the previous
// mutant. Every mutant keeps the argument count and types, every argument
// it changes is within maxLen, and nothing the mutator was given (base,
// dictionary, splice partners, substitutions) changes.
func FuzzMutate(f *testing.F) {
	all := genValues([]byte("bytes"), "string", true, float32(1.5), 2.5, int(3), int8(4), int16(5), int32(6),
		int64(7))
	f.Add(all, []byte{2, 3, 't', 'o', 'k', 0}, []byte{1, 1}, genTrace(nil, nil), uint64(1), uint16(64), uint8(40))
	f.Add(genValues(uint(8), uint8(9), uint16(10), uint32(11), uint64(12), math.Float64frombits(0x7ff8_0000_dead_beef)),
		[]byte{1, 8, 1, 2, 3, 4, 5, 6, 7, 8}, []byte{}, genTrace([][]byte{genIntCmp(8, genDerive, 0, 99)}, nil),
		uint64(2), uint16(8), uint8(31))
	f.Add(genValues([]byte("\xc3\xc3\xc3<html>"), "x"), []byte{}, []byte{2, 0x80, 0x81},
		genTrace(nil, [][]byte{genStrCmp(genFold, "<HTML>", "<body class=x>")}), uint64(3), uint16(12), uint8(63))
	f.Add(genValues(""), []byte{1, 0}, []byte{}, genTrace(nil, [][]byte{genStrCmp(0, "", "abc")}), uint64(4), uint16(0), uint8(5))
	f.Fuzz(func(t *testing.T, valsIn, dictIn, spliceIn, traceIn []byte, seed uint64, maxLen uint16, rounds uint8) {
		base := (&fuzzReader{valsIn}).values()
		m := newMutator(seed, int(maxLen%600))
		m.dict = genDict(dictIn)
		m.splice = genSplice(spliceIn, base)
		m.cmp = (&fuzzReader{traceIn}).trace(base).substitutions(base)
		frozen := snapshotMutator(base, m)
		var cur []any
		for round := range int(rounds%64) + 1 {
			if round%2 == 0 {
				cur = cloneValues(base)
			}
			before := cloneValues(cur)
			m.mutate(cur)
			checkMutant(t, before, cur, m.maxLen)
		}
		if after := snapshotMutator(base, m); !bytes.Equal(after, frozen) {
			t.Fatal("mutating changed the base input, dictionary, splice partners or substitutions")
		}
	})
}

// genDict reads 0 to 8 tokens (possibly empty, possibly longer than
// maxLen).
func genDict(b []byte) [][]byte {
	r := &fuzzReader{b}
	var dict [][]byte
	for range r.byte() % 9 {
		dict = append(dict, r.bytes())
	}
	return dict
}

// genSplice reads 0 to 3 splice partners. A partner's first byte has
// bit 7 set for one of base's shape (its []byte and string values read
// from the input, the others base's); otherwise it is any list of values.
func genSplice(b []byte, base []any) [][]any {
	r := &fuzzReader{b}
	var out [][]any
	for range r.byte() % 4 {
		if r.byte()&0x80 == 0 {
			out = append(out, r.values())
			continue
		}
		p := cloneValues(base)
		for i, v := range p {
			switch v.(type) {
			case []byte:
				p[i] = r.bytes()
			case string:
				p[i] = string(r.bytes())
			}
		}
		out = append(out, p)
	}
	return out
}

// snapshotMutator encodes everything a mutation must leave alone.
func snapshotMutator(base []any, m *mutator) []byte {
	b := appendValues(nil, base)
	for _, tok := range m.dict {
		b = appendValue(b, tok)
	}
	for _, p := range m.splice {
		b = appendValues(b, p)
	}
	for _, s := range m.cmp {
		b = append(appendValue(appendValue(b, s.from), s.to), byte(s.arg), byte(s.at))
		if s.ival != nil {
			b = appendValue(b, s.ival)
		}
	}
	return b
}

// checkMutant checks one mutation of before into after.
func checkMutant(t *testing.T, before, after []any, maxLen int) {
	t.Helper()
	if !sameShape(t, "mutate", after, before) {
		t.FailNow()
	}
	for i := range after {
		if sameValue(after[i], before[i]) {
			continue
		}
		if n := byteLen(after[i]); n > maxLen {
			t.Fatalf("mutate made argument %d %d bytes long (was %d), limit %d", i, n, byteLen(before[i]), maxLen)
		}
	}
}
