// Package fuzzshape defines an Analyzer that checks the function passed to
// (*testing.F).Fuzz.
//
// # Analyzer fuzzshape
//
// fuzzshape: check the signature of the fuzz function passed to f.Fuzz
//
// The testing package panics at run time unless the argument of f.Fuzz is a
// function whose first parameter is *testing.T, that takes at least one fuzzed
// argument, returns nothing, and whose fuzzed arguments all have one of the
// types []byte, string, bool, float32, float64, int, int8, int16, int32 (rune),
// int64, uint, uint8 (byte), uint16, uint32 or uint64. Named types such as
// "type ID uint32" are rejected too: the testing package compares types
// exactly. An argument of interface type is reported too (as x/tools'
// passes/tests does), because its signature cannot be checked.
//
//	f.Fuzz(func(t *testing.T, id ID) {})   // unsupported type ID
//	f.Fuzz(func(t *testing.T) {})          // no fuzzed parameter
//	f.Fuzz(func(t *testing.T, s string) error { return nil }) // returns a value
//
// The analyzer is part of fuzzvet (cmd/fuzzvet, fuzzbox vet) and exports the
// conventional Analyzer variable so nogo and gopls can load it unchanged.
package fuzzshape
