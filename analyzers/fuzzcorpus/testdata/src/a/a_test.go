package a

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

func FuzzA(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, n int) {})
}

func FuzzB(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {})
}

// The fuzz function is not visible: only syntax is checked.
func FuzzBad(f *testing.F) {
	var fn any = func(t *testing.T, n uint8) {}
	f.Fuzz(fn)
}

// typed.Fuzz fuzzes one []byte that encodes s and n.
func FuzzTyped(f *testing.F) {
	typed.Fuzz(f, func(t *testing.T, s string, n int) {})
}
