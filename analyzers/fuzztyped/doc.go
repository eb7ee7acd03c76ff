// Package fuzztyped defines an Analyzer that checks fuzz tests written with
// fuzzbox's typed package: the function passed to typed.Fuzz and the seeds
// passed to typed.Add.
//
// # Analyzer fuzztyped
//
// fuzztyped: check typed.Fuzz functions and typed.Add seeds
//
// typed.Fuzz(f, fn) fuzzes fn(t *testing.T, args...) whose arguments can be
// of any fuzzable type: it gives f.Fuzz one []byte and decodes the arguments
// from it; typed.Add(f, args...) encodes one seed. A type can be fuzzed if it
// is a boolean, numeric or string type; or if it or its pointer has the
// methods of both encoding.BinaryMarshaler and BinaryUnmarshaler, or of both
// TextMarshaler and TextUnmarshaler (then it is encoded through them and not
// looked into: time.Time, netip.Addr, big.Int); or if it is an array, slice,
// pointer, map or struct of fuzzable types (blank fields are skipped). An
// interface, chan, func or unsafe.Pointer anywhere inside a type makes it
// unfuzzable, and typed.Fuzz fails the test at run time. The analyzer reports:
//
//   - a typed.Fuzz argument that is not a func(*testing.T, A1, ..., An) with
//     n >= 1, no results and no variadic parameter;
//
//   - each parameter whose type cannot be fuzzed, with the path to the
//     offending type:
//
//     typed.Fuzz: parameter c of type Config cannot be fuzzed: field Config.OnClose is a func
//
//   - typed.Add seeds that do not match the parameters: a wrong count, a value
//     whose type is not identical to its parameter's (named types are fine,
//     but typed.Add takes ...any, so the untyped constant 5 is an int even for
//     a uint8 or a "type Mode int" parameter: the analyzer suggests uint8(5)
//     or Mode(5)), an untyped nil, which has no type to encode;
//
//   - an f.Add or a second f.Fuzz in a Fuzz test whose fuzz function is given
//     through typed.Fuzz.
//
// Like fuzzadd, the analyzer follows the helpers the Fuzz test passes its
// *testing.F to, and typed.Add(f, seeds...) where seeds is a literal, a local
// variable set once from one, or the variable of a range over a literal of
// seed lists.
//
// The analyzer is part of fuzzvet (cmd/fuzzvet, fuzzbox vet) and exports the
// conventional Analyzer variable so nogo and gopls can load it unchanged.
package fuzztyped
