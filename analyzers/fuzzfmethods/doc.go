// Package fuzzfmethods defines an Analyzer that reports *testing.F methods
// used inside the fuzz function.
//
// # Analyzer fuzzfmethods
//
// fuzzfmethods: report *testing.F methods called inside the fuzz function
//
// Inside the function passed to f.Fuzz (or to typed.Fuzz of fuzzbox's typed
// package, which calls it from f.Fuzz's) only f.Name and f.Failed may be used;
// the other *testing.F methods panic there (f.Fatal, f.Skip, f.Helper, ...)
// or are silently ignored (f.Add). The fuzz function must use its *testing.T
// instead. The analyzer looks at the fuzz function's body, the closures in it,
// and the package helpers it passes the *testing.F to, and suggests t.X for
// f.X where *testing.T has the same method.
//
//	f.Fuzz(func(t *testing.T, s string) {
//		if s == "" {
//			f.Skip() // the fuzz function must not call f.Skip: use t.Skip
//		}
//	})
//
// The analyzer is part of fuzzvet (cmd/fuzzvet, fuzzbox vet) and exports the
// conventional Analyzer variable so nogo and gopls can load it unchanged.
package fuzzfmethods
