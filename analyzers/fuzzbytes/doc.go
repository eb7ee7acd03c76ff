// Package fuzzbytes defines an Analyzer that reports fuzz functions that
// modify or keep their []byte arguments.
//
// # Analyzer fuzzbytes
//
// fuzzbytes: report fuzz functions that modify or retain a []byte argument
//
// The fuzzing engine reuses the memory of []byte arguments between calls, so
// the testing package requires that the fuzz function neither modifies them
// nor retains them after it returns. The analyzer reports, for a []byte
// argument b and the local slices of it (c := b[1:]):
//
//   - writes into it: b[i] = x, b[i]++, copy(b, x), append(b[:n], x...);
//
//   - stores that outlive the call: assigning b (or a slice of it, or appending
//     it to a slice) to a variable, field or element rooted in a variable
//     declared outside the fuzz function (a package variable or a variable of
//     the enclosing Fuzz test).
//
//     var last []byte
//     f.Fuzz(func(t *testing.T, b []byte) {
//     last = b       // retains b
//     b[0] = 'x'     // modifies b
//     })
//
// Copy the bytes first (bytes.Clone(b), string(b)).
//
// The analyzer is part of fuzzvet (cmd/fuzzvet, fuzzbox vet) and exports the
// conventional Analyzer variable so nogo and gopls can load it unchanged.
package fuzzbytes
