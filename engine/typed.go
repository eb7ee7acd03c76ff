package engine

import (
	"strings"

	"github.com/fuzzbox/fuzzbox/internal/typedhook"
)

// Typed fuzz tests (package typed) fuzz one []byte that encodes the fuzz
// function's typed arguments. The running test's harness, which package
// typed registers in internal/typedhook, knows their structure: workers
// mutate and minimize through it, and failures print the arguments as Go
// syntax. Byte-level mutations still run on the encoding, one in
// typedByteShare: they reach what a structural step cannot (a byte inside
// a long string, a field's encoding cut in two by a splice).

// typedByteShare: one mutation in this many of a typed input is byte-level.
const typedByteShare = 32

// typedHarness returns the running typed fuzz test's harness when vals is
// its input (one []byte), or nil.
func typedHarness(vals []any) typedhook.Harness {
	if len(vals) != 1 {
		return nil
	}
	if _, ok := vals[0].([]byte); !ok {
		return nil
	}
	return typedhook.Get()
}

// typedMutator mutates a typed input by its structure.
type typedMutator struct {
	h      typedhook.Harness
	splice [][]byte
	hints  typedhook.Hints
}

// newTypedMutator returns a typed mutator for base when its fuzz test is
// typed, or nil; splice holds the other corpus entries given to m.
func newTypedMutator(base []any, m *mutator) *typedMutator {
	h := typedHarness(base)
	if h == nil {
		return nil
	}
	t := &typedMutator{h: h}
	for _, s := range m.splice {
		if b, ok := s[0].([]byte); ok && len(s) == 1 {
			t.splice = append(t.splice, b)
		}
	}
	return t
}

// setHints takes the comparisons of the base input's traced execution and
// the dictionary as the harness's hints.
func (t *typedMutator) setHints(c *cmpTrace, dict [][]byte) {
	t.hints.Ints = t.hints.Ints[:0]
	for _, ic := range c.ints[:min(len(c.ints), maxCmpSubs)] {
		t.hints.Ints = append(t.hints.Ints, typedhook.IntCmp{A: ic.A, B: ic.B, Size: int(ic.Size)})
	}
	t.hints.Strs = append(t.hints.Strs[:0], c.strs[:min(len(c.strs), maxCmpSubs)]...)
	t.hints.Tokens = dict
}

// mutate replaces vals[0] with a structural mutant and reports whether it
// did; the caller mutates the bytes otherwise.
func (t *typedMutator) mutate(vals []any, m *mutator) bool {
	if m.r.IntN(typedByteShare) == 0 {
		return false
	}
	if t.hints.Tokens == nil {
		t.hints.Tokens = m.dict
	}
	out := t.h.Mutate(vals[0].([]byte), m.r, t.splice, &t.hints)
	if out == nil || len(out) > m.resizeLen {
		return false
	}
	vals[0] = out
	return true
}

// typedShrink minimizes a typed input by its structure: fewer elements,
// zero fields, shorter strings, smaller numbers. ok is false when the input
// is not typed.
func typedShrink(vals []any, keep func([]any) bool, stop func() bool) (best []any, smaller, ok bool) {
	h := typedHarness(vals)
	if h == nil {
		return nil, false, false
	}
	b, smaller := h.Shrink(vals[0].([]byte), func(c []byte) bool { return keep([]any{c}) }, stop)
	return []any{b}, smaller, true
}

// typedValues returns a typed input's arguments as Go expressions, or nil.
func typedValues(vals []any) []string {
	h := typedHarness(vals)
	if h == nil {
		return nil
	}
	return h.Format(vals[0].([]byte))
}

// typedValuesText is the failure message's addition for a typed input.
func typedValuesText(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return "\nfailing arguments (typed): " + strings.Join(values, ", ")
}
