// go list rejects this package ("wrong signature for ..."), so go vet never
// reaches it; gopls and nogo do. fuzzname_test.go type-checks it directly.
package badsig

import "testing"

func FuzzOK(f *testing.F) {}

func FuzzTwoParams(f *testing.F, n int) {} // want `wrong signature for FuzzTwoParams: go test requires func FuzzTwoParams\(f \*testing.F\)`

func FuzzWithT(t *testing.T) {} // want `wrong signature for FuzzWithT`

func FuzzResult(f *testing.F) error { return nil } // want `wrong signature for FuzzResult`

func FuzzNone() {} // want `wrong signature for FuzzNone`

func FuzzGeneric[T any](f *testing.F) {} // want `FuzzGeneric has type parameters: go test rejects fuzz tests with type parameters`

func Fuzzy(s string) string { return s } // a helper, not a fuzz test
