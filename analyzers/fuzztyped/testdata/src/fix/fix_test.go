package fix

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

type Mode string

type Op struct{ Path string }

func FuzzFix(f *testing.F) {
	typed.Add(f, 5, 1.5, "tcp", -1<<3, 2i, nil, nil) // want `untyped constant 5` `untyped constant 1.5` `untyped constant "tcp"` `untyped constant -1 << 3` `untyped constant 2i` `untyped nil` `untyped nil`
	typed.Fuzz(f, func(t *testing.T, a uint8, x float32, m Mode, i int16, z complex64, ops []Op, o *Op) {})
}
