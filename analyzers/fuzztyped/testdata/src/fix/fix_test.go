package fix

import (
	"net/netip"
	"testing"
	stdtime "time"

	"github.com/fuzzbox/fuzzbox/typed"
)

type Mode string

type Op struct{ Path string }

func FuzzFix(f *testing.F) {
	typed.Add(f, 5, 1.5, "tcp", -1<<3, 2i, nil, nil) // want `untyped constant 5` `untyped constant 1.5` `untyped constant "tcp"` `untyped constant -1 << 3` `untyped constant 2i` `untyped nil` `untyped nil`
	typed.Fuzz(f, func(t *testing.T, a uint8, x float32, m Mode, i int16, z complex64, ops []Op, o *Op) {})
}

func FuzzImports(f *testing.F) {
	typed.Add(f, 5, nil) // want `untyped constant 5 in typed.Add has default type int, but parameter d is time.Duration` `untyped nil in typed.Add has no type to encode: use a typed nil such as \(\*netip.Addr\)\(nil\) for parameter a of type \*netip.Addr`
	typed.Fuzz(f, func(t *testing.T, d stdtime.Duration, a *netip.Addr) {})
}

// fix_test.go does not import math/big: no fix.
func FuzzNotImported(f *testing.F) {
	typed.Add(f, nil) // want `use a typed nil such as \(\*big.Int\)\(nil\) for parameter n of type \*big.Int`
	typed.Fuzz(f, bigTarget)
}
