// Package fuzzcorpus defines an Analyzer that checks the seed corpus files of
// each Fuzz test against its fuzz function.
//
// # Analyzer fuzzcorpus
//
// fuzzcorpus: check the files in testdata/fuzz/<FuzzName> against the fuzz function
//
// go test reads every file in testdata/fuzz/<FuzzName>/ of the package as a
// "go test fuzz v1" corpus entry; a malformed file, or one whose value count
// or types do not match the fuzz function's arguments, fails the whole Fuzz
// test. The analyzer parses the files with the fuzzbox corpus package and
// reports each problem at its line in the corpus file, for example
//
//	testdata/fuzz/FuzzParse/seed1:2: corpus entry does not fit FuzzParse: mismatched types in corpus entry: [int], want [string]
//
// Only the files of Fuzz tests whose fuzz function the analyzer can see are
// checked for types; the others are checked for syntax. The files of a Fuzz
// test whose fuzz function goes through typed.Fuzz(f, fn) must hold one
// []byte (the encoded arguments), whatever fn's parameters. A package directory
// without testdata/fuzz (as in a Bazel sandbox) is silently skipped.
//
// The analyzer is part of fuzzvet (cmd/fuzzvet, fuzzbox vet) and exports the
// conventional Analyzer variable so nogo and gopls can load it unchanged.
package fuzzcorpus
