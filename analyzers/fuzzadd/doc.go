// Package fuzzadd defines an Analyzer that checks the values passed to
// (*testing.F).Add against the parameters of the fuzz function.
//
// # Analyzer fuzzadd
//
// fuzzadd: check f.Add values against the fuzz function's parameters
//
// The testing package needs one f.Add value per fuzzed argument, each of
// exactly the argument's type; otherwise the seed fails at run time with
// "mismatched types". An untyped constant takes its default type when passed
// to Add's ...any parameter, so f.Add(5) adds an int even when the fuzzed
// argument is a uint8, and f.Add(1.5) a float64 for a float32 argument; the
// analyzer suggests the conversion (uint8(5)). Values of named types
// (type ID uint32) are rejected by the testing package; the analyzer suggests
// converting them to the underlying type.
//
// The analyzer follows f.Add calls into package helpers that receive the
// *testing.F, and into f.Add(args...) when args is a literal, a local slice
// initialized from a literal, or the variable of a range over such a literal:
//
//	for _, seed := range [][]any{{"a", 1}, {"b", uint8(2)}} {
//		f.Add(seed...)
//	}
//	f.Fuzz(func(t *testing.T, s string, n uint8) {})
//
// reports the untyped 1 in the first seed.
//
// Fuzz tests whose fuzz function goes through fuzzbox's typed.Fuzz are left
// to fuzztyped.
//
// The analyzer is part of fuzzvet (cmd/fuzzvet, fuzzbox vet) and exports the
// conventional Analyzer variable so nogo and gopls can load it unchanged.
package fuzzadd
