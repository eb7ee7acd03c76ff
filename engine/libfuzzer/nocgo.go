//go:build !cgo

package libfuzzer

// Without cgo the package compiles (go vet, cross-compiled builds of the
// module) but makes no working binary: the entry points are C (shim.go).

func fuzzStart() {}
func fuzzEnd()   {}
