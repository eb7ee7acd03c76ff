package fix

import "testing"

type ID uint32

func FuzzFix(f *testing.F) {
	f.Add(5, 1.5, ID(3), "ok")       // want `untyped constant 5` `untyped constant 1.5` `named type ID`
	f.Add(-1<<3, 2, uint32(1), "ok") // want `untyped constant -1 << 3` `untyped constant 2`
	f.Fuzz(func(t *testing.T, a int8, x float32, id uint32, s string) {})
}
