// Package fuzzname defines an Analyzer that reports Fuzz functions go test
// rejects or silently skips.
//
// # Analyzer fuzzname
//
// fuzzname: report Fuzz functions go test would reject or skip
//
// In a _test.go file, go test treats every top-level function named Fuzz or
// FuzzXxx (the letter after Fuzz not lowercase) as a fuzz test and refuses to
// build the test binary unless its signature is exactly func(f *testing.F),
// with no results and no type parameters. A function such as Fuzzfoo that
// takes a *testing.F is not a fuzz test at all and never runs.
//
//	func FuzzParse(f *testing.F, n int) {}     // wrong signature
//	func FuzzGen[T any](f *testing.F) {}        // type parameters
//	func Fuzzparse(f *testing.F) {}             // lowercase after Fuzz: never run
//
// The analyzer is part of fuzzvet (cmd/fuzzvet, fuzzbox vet) and exports the
// conventional Analyzer variable so nogo and gopls can load it unchanged.
package fuzzname
