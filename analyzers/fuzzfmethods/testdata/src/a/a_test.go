package a

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

func FuzzDirect(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		f.Name()   // allowed
		f.Failed() // allowed
		if s == "" {
			f.Skip("empty") // want `the fuzz function must not call f.Skip: use t.Skip`
		}
		f.Fatalf("bad %q", s) // want `the fuzz function must not call f.Fatalf: use t.Fatalf`
		f.Add("more")         // want `the fuzz function must not call f.Add: only f.Name and f.Failed are allowed there`
		t.Log(s)
	})
}

func FuzzClosure(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		check := func() {
			f.Helper() // want `the fuzz function must not call f.Helper: use t.Helper`
		}
		check()
	})
}

func fail(f *testing.F, msg string) { f.Error(msg) }

func fine(f *testing.F) string { return f.Name() }

func FuzzHelper(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int) {
		_ = fine(f)
		if n < 0 {
			fail(f, "negative") // want `the fuzz function must not call f.Error: fail calls it through the \*testing.F it is passed`
		}
	})
}

func FuzzNested(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int) {
		f.Fuzz(func(t *testing.T, m int) {}) // want `the fuzz function must not call f.Fuzz: only f.Name and f.Failed are allowed there`
	})
}

func FuzzOutside(f *testing.F) {
	f.Skip("outside the fuzz function: fine")
	f.Fuzz(func(t *testing.T, n int) {})
}

func target(t *testing.T, n int) {}

var gf *testing.F

func declared(t *testing.T, s string) {
	gf.Log(s) // want `the fuzz function must not call f.Log: use t.Log`
}

func FuzzDeclared(f *testing.F) {
	gf = f
	f.Fuzz(declared)
}

func FuzzTyped(f *testing.F) {
	typed.Fuzz(f, func(t *testing.T, n int, s string) {
		_ = f.Name() // allowed
		if n == 0 {
			f.Skip("zero") // want `the fuzz function must not call f.Skip: use t.Skip`
		}
	})
}
