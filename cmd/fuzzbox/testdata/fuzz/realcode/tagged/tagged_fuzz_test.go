//go:build fuzztag

package tagged

import "testing"

func FuzzHalf(f *testing.F) {
	f.Add(4)
	f.Fuzz(func(t *testing.T, n int) { Half(n) })
}
