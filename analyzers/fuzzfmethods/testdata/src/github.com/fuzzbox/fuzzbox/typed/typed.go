// Package typed is a stub of github.com/fuzzbox/fuzzbox/typed with its two
// signatures, for the analyzer tests.
package typed

// F is what Add and Fuzz use of a *testing.F.
type F interface {
	Helper()
	Name() string
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
	Add(args ...any)
	Fuzz(ff any)
}

// Add adds one seed: args encoded by their dynamic types.
func Add(f F, args ...any) {}

// Fuzz fuzzes fn, a func(*testing.T, A1, ..., An).
func Fuzz(f F, fn any) {}
