// Package fuzzcall defines an Analyzer that checks how often, and in which
// order, a Fuzz test calls f.Fuzz and f.Add.
//
// # Analyzer fuzzcall
//
// fuzzcall: check that a Fuzz test calls f.Fuzz exactly once, after its f.Add calls
//
// The testing package panics when f.Fuzz is called a second time, fails a
// Fuzz test that returns without calling f.Fuzz, f.Fail or f.Skip, and
// silently ignores f.Add calls made after f.Fuzz. The analyzer follows every
// path through the Fuzz test (and the package helpers it passes its
// *testing.F to) and reports:
//
//   - an f.Fuzz call that can be reached after another one;
//   - a return (or the end of the function) reached on a path without f.Fuzz,
//     f.Skip, f.Fail, f.Error or f.Fatal (paths ending in panic or a
//     fatal call are fine);
//   - an f.Add call that can be reached after f.Fuzz.
//
// typed.Fuzz(f, fn) and typed.Add(f, ...) of fuzzbox's typed package count as
// f.Fuzz and f.Add, which they call. A Fuzz test that passes its *testing.F
// to other code the analyzer cannot see, or calls f.Fuzz from a function
// literal, is not checked.
//
// The analyzer is part of fuzzvet (cmd/fuzzvet, fuzzbox vet) and exports the
// conventional Analyzer variable so nogo and gopls can load it unchanged.
package fuzzcall
