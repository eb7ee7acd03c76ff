package badadd

import "testing"

// FuzzBad's seed does not match its fuzz function: f.Add(int) for a string
// argument. go test fails only at run time; under nogo, fuzzvet's fuzzadd
// analyzer fails the build.
func FuzzBad(f *testing.F) {
	f.Add(42)
	f.Fuzz(func(t *testing.T, s string) {})
}
