package a

import "testing"

type ID uint32

type Bytes []byte

func FuzzGood(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte, s string, ok bool, r rune, c byte, x float32, y float64,
		i int, i8 int8, i16 int16, i32 int32, i64 int64, u uint, u8 uint8, u16 uint16, u32 uint32, u64 uint64) {
	})
}

func FuzzNotFunc(f *testing.F) {
	f.Fuzz(0) // want `the argument to f.Fuzz must be a function, not int`
}

func FuzzInterface(f *testing.F) {
	var fn any = func(t *testing.T, s string) {}
	f.Fuzz(fn) // want `the argument to f.Fuzz must be a function, not any`
}

func FuzzReturn(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) error { return nil }) // want `the fuzz function must not return a value`
}

func FuzzNoArgs(f *testing.F) {
	f.Fuzz(func() {}) // want `the fuzz function must take a \*testing.T and at least one fuzzed argument`
}

func FuzzOnlyT(f *testing.F) {
	f.Fuzz(func(t *testing.T) {}) // want `the fuzz function must take at least one fuzzed argument after \*testing.T`
}

func FuzzFirstNotT(f *testing.F) {
	f.Fuzz(func(i int64, s string) {}) // want `the first parameter of the fuzz function must be \*testing.T, not int64`
}

func FuzzFirstF(f *testing.F) {
	f.Fuzz(func(t *testing.F, s string) {}) // want `the first parameter of the fuzz function must be \*testing.T, not \*testing.F`
}

func FuzzNamed(f *testing.F) {
	f.Fuzz(func(t *testing.T, id ID) {}) // want `fuzz function parameter id has named type ID, which the testing package rejects: use uint32`
}

func FuzzNamedBytes(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, b Bytes) {}) // want `fuzz function parameter b has named type Bytes, which the testing package rejects: use \[\]byte`
}

func FuzzUnsupported(f *testing.F) {
	f.Fuzz(func(t *testing.T, a, b string, c complex64, d []int) {}) // want `parameter c has unsupported type complex64: fuzzed arguments can only be \[\]byte, string, bool` `parameter d has unsupported type \[\]int`
}

func FuzzVariadic(f *testing.F) {
	f.Fuzz(func(t *testing.T, s ...string) {}) // want `fuzz function parameter s must not be variadic`
}

func target(t *testing.T, m map[string]int) {}

func FuzzDeclared(f *testing.F) {
	f.Fuzz(target) // want `fuzz function parameter m has unsupported type map\[string\]int`
}

func FuzzVar(f *testing.F) {
	fn := func(t *testing.T, i float32) {}
	f.Fuzz(fn) // ok
}

// Helpers that receive the *testing.F are checked too.
func helper(f *testing.F) {
	f.Fuzz(func(t *testing.T, p *int) {}) // want `parameter p has unsupported type \*int`
}

func FuzzHelper(f *testing.F) { helper(f) }
