// Package typed is a stub of github.com/fuzzbox/fuzzbox/typed with its two
// signatures, for the analyzer tests.
package typed

import "testing"

// Add adds one seed: args encoded by their dynamic types.
func Add(f *testing.F, args ...any) {}

// Fuzz fuzzes fn, a func(*testing.T, A1, ..., An).
func Fuzz(f *testing.F, fn any) {}
