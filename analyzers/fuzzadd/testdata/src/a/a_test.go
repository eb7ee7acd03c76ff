package a

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

type ID uint32

const untypedSeven = 7

const typedEight uint8 = 8

func FuzzGood(f *testing.F) {
	f.Add(uint8(5), "x", []byte("y"), 1.5, float32(2), true, 'r', byte('b'))
	f.Add(typedEight, "x", []byte(nil), 0.0, float32(0), false, rune(0), byte(0))
	f.Fuzz(func(t *testing.T, n uint8, s string, b []byte, x float64, y float32, ok bool, r rune, c byte) {})
}

func FuzzCount(f *testing.F) {
	f.Add()          // want `f.Add has 0 values, but the fuzz function takes 2 fuzzed arguments \(int, string\)`
	f.Add(1, "a", 3) // want `f.Add has 3 values, but the fuzz function takes 2 fuzzed arguments`
	f.Add(1, "a")
	f.Fuzz(func(t *testing.T, i int, s string) {})
}

func FuzzUntyped(f *testing.F) {
	f.Add(5, 1.5, "s")               // want `untyped constant 5 in f.Add has default type int, but fuzz argument n is uint8` `untyped constant 1.5 in f.Add has default type float64, but fuzz argument x is float32`
	f.Add(untypedSeven, 2, "s")      // want `untyped constant untypedSeven in f.Add has default type int, but fuzz argument n is uint8` `untyped constant 2 in f.Add has default type int, but fuzz argument x is float32`
	f.Add(300, float32(1), "s")      // want `f.Add value 300 has type int, but fuzz argument n is uint8`
	f.Add(uint8(1), float32(1), 'c') // want `f.Add value 'c' has type rune, but fuzz argument s is string`
	f.Fuzz(func(t *testing.T, n uint8, x float32, s string) {})
}

func FuzzTyped(f *testing.F) {
	var n int64 = 3
	f.Add(n)     // want `f.Add value n has type int64, but fuzz argument v is int`
	f.Add(ID(4)) // want `f.Add value ID\(4\) has type ID, but fuzz argument v is int`
	f.Fuzz(func(t *testing.T, v int) {})
}

// FuzzInterfaceValue: a value of an interface type has its dynamic type
// at run time (goldmark's fuzz test adds strings out of decoded JSON).
func FuzzInterfaceValue(f *testing.F) {
	for _, c := range []map[string]any{{"markdown": "# x"}} {
		f.Add(c["markdown"])
	}
	var v any = "y"
	f.Add(v)
	f.Fuzz(func(t *testing.T, s string) {})
}

func FuzzNamed(f *testing.F) {
	f.Add(ID(4)) // want `f.Add value ID\(4\) has named type ID, which the testing package rejects: fuzz argument id is uint32`
	f.Fuzz(func(t *testing.T, id uint32) {})
}

func FuzzSpread(f *testing.F) {
	seeds := []any{"a", 1} // want `untyped constant 1 in f.Add has default type int, but fuzz argument n is uint16`
	f.Add(seeds...)
	f.Add([]any{"b", uint16(2)}...)
	f.Add([]any{"c"}...)                                     // want `this seed passed to f.Add has 1 values, but the fuzz function takes 2 fuzzed arguments`
	for _, s := range [][]any{{"d", uint16(3)}, {"e", -1}} { // want `f.Add value -1 has type int, but fuzz argument n is uint16`
		f.Add(s...)
	}
	f.Fuzz(func(t *testing.T, s string, n uint16) {})
}

func FuzzSpreadUnknown(f *testing.F) {
	seeds := []any{"a", 1}
	seeds = append(seeds, 2)
	f.Add(seeds...) // reassigned: not statically known, silent
	f.Fuzz(func(t *testing.T, s string, n uint16) {})
}

func FuzzRangeStruct(f *testing.F) {
	for _, tc := range []struct {
		s string
		n int
	}{{"a", 1}} {
		f.Add(tc.s, tc.n) // want `f.Add value tc.n has type int, but fuzz argument n is int8`
	}
	f.Fuzz(func(t *testing.T, s string, n int8) {})
}

func addSeeds(f *testing.F) {
	f.Add(5) // want `untyped constant 5 in f.Add has default type int, but fuzz argument n is uint64`
	more(f)
}

func more(f *testing.F) {
	f.Add("x") // want `f.Add value "x" has type string, but fuzz argument n is uint64`
}

func FuzzHelper(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, n uint64) {})
}

func FuzzUnknownTarget(f *testing.F) {
	f.Add(ID(1)) // want `f.Add value ID\(1\) has type ID, which the testing package rejects`
	var fn any = func(t *testing.T, id uint32) {}
	f.Fuzz(fn)
}

func target(t *testing.T, b []byte) {}

func FuzzDeclaredTarget(f *testing.F) {
	f.Add("bytes") // want `f.Add value "bytes" has type string, but fuzz argument b is \[\]byte`
	f.Fuzz(target)
}

// Seeds of typed.Fuzz are fuzztyped's to check.
func FuzzTypedFuzz(f *testing.F) {
	f.Add(5)
	typed.Add(f, 5)
	typed.Fuzz(f, func(t *testing.T, n uint8) {})
}
