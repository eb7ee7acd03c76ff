package xtests

// Further inputs on which passes/tests reports fuzz problems.

import "testing"

func FuzzGen[T any](f *testing.F) {}

func Fuzzlower(f *testing.F) {}

func FuzzMulti(f *testing.F) {
	f.Add(1, "a", 2.5)
	f.Add("a", 1, 2.5)
	f.Add("a", 1)
	f.Fuzz(func(t *testing.T, a int, s string, x float64) {})
}

func FuzzSecondArg(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte, c chan int) {})
}
