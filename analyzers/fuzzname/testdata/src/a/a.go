package a

import "testing"

// Not a test file: nothing here is a fuzz test.
func FuzzNotInTestFile(x int) {}

func Fuzzhelper(f *testing.F) {}
