// Package mask has a go:nosplit function whose frame nearly fills the
// nosplit stack budget and that compares (as github.com/pjbgf/sha1cd/ubc's
// calculateDvMaskGeneric does, 720 of 792 bytes): with fuzzbox's comparison
// hooks, which are go:nosplit too, the chain no longer fits.
package mask

//go:nosplit
//go:noinline
func Mask(w []uint32) uint32 {
	var tmp [180]uint32
	for i := range tmp {
		tmp[i] = w[i%len(w)] ^ uint32(i)
	}
	m := uint32(0)
	for i := range tmp {
		if tmp[i]&0x80000000 != 0 {
			m ^= tmp[i] >> 3
		}
	}
	return m
}
