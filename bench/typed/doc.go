// Package typed holds nothing itself: each subdirectory (but internal/) is
// one planted-bug target of the fuzzbox benchmark's typed set (go run ./bench
// -set=typed from the repository root), fuzzed with typed arguments
// (github.com/fuzzbox/fuzzbox/typed). Every target has two fuzz functions
// over the same code: FuzzX, written with typed.Add and typed.Fuzz, which
// fuzzbox and go test -fuzz run, and FuzzXBytes, a go-fuzz-headers-style
// harness that builds the same values by consuming a []byte
// (internal/consume), which go-118-fuzz-build can build for libFuzzer. This
// is a separate module, requiring the fuzzbox module by a replace, so that
// the fuzzbox module's ./... never includes the deliberately buggy code.
package typed
