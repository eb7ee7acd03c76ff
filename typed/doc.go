// Package typed fuzzes functions of typed arguments — structs, slices,
// maps, pointers, arrays, named types and types with marshaling methods —
// with an ordinary Go fuzz test that stock go test still runs:
//
//	func FuzzApply(f *testing.F) {
//		typed.Add(f, Config{Port: 80, Mode: "tcp"}, []Op{{Kind: OpOpen, Path: "/a"}})
//		typed.Fuzz(f, func(t *testing.T, c Config, ops []Op) {
//			s := NewServer(c)
//			for _, op := range ops {
//				s.Apply(op)
//			}
//		})
//	}
//
// Fuzz calls f.Fuzz with a function of one []byte argument that decodes
// the bytes into the arguments; Add encodes a seed into such bytes. Every
// byte string decodes (to zero values where it runs out), the same way
// every time, and every value encodes, so go test, go test -fuzz, the Bazel
// rules' replay and libFuzzer builds (fuzzbox build -libfuzzer, OSS-Fuzz)
// run and replay typed fuzz tests like any other; a reproducer is a go test
// fuzz v1 file of one []byte. Under fuzzbox's engine the arguments are
// mutated by their structure (fields set to interesting values and
// compared constants, elements and entries inserted, removed and spliced
// between corpus entries), failures are minimized to the smallest value and
// reports print it as Go syntax.
//
// The encoding (version 2, docs/typed.md) is: a version byte, then each
// argument in order. Booleans take one byte (its low bit); integers and
// floats their size in little-endian bytes (int, uint and uintptr always
// eight); a string a uvarint length and its bytes; a slice or map a uvarint
// count plus one (zero is nil) and its elements or key-value pairs (map
// entries sorted by their keys' encodings); a pointer a byte (low bit: not
// nil) and the value; an array its elements; a struct its fields in order
// (unexported too, but for the standard library types', blank ones
// skipped); a type whose pointer has MarshalBinary and UnmarshalBinary (or
// else MarshalText and UnmarshalText), not both promoted from an embedded
// field, the length-prefixed bytes of those methods, and the zero value
// where UnmarshalX refuses them. Interfaces, channels, funcs and unsafe.Pointer
// cannot be fuzzed; pointers, slices and maps nest at most 64 deep.
//
// Users are fuzz tests. Package typed imports only the standard library,
// corpus (the go test fuzz v1 format), internal/stdlib (which packages are
// the standard library's) and internal/typedhook, through which fuzzbox's
// engine finds the running fuzz test's structure; tools ask a test binary
// for its entries' arguments through ValuesEnv.
package typed
