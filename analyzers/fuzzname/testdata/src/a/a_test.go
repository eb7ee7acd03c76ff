package a

import "testing"

func FuzzOK(f *testing.F) {}

func Fuzz(f *testing.F) {}

func Fuzz_Underscore(f *testing.F) {}

func Fuzzfoo(f *testing.F) {} // want `Fuzzfoo is not run by go test: the first letter after Fuzz must not be lowercase`

func Fuzzy(s string) string { return s } // a helper, not a fuzz test

type S struct{}

func (S) FuzzMethod(x int) {} // methods are not tests
