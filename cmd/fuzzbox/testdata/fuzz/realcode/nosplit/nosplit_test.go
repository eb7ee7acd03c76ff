package nosplit

import (
	"testing"

	"example.com/realcode/nosplit/mask"
)

// The package under test calls mask.Mask, a go:nosplit function whose frame
// leaves no room for fuzzbox's comparison hooks: fuzzbox compiles package
// mask without instrumentation (saying so) instead of failing to link.

func TestMask(t *testing.T) {
	if mask.Mask([]uint32{1, 2, 3}) == 0xffffffff {
		t.Fatal("unexpected mask")
	}
}

func FuzzMask(f *testing.F) {
	f.Add(uint32(7))
	f.Fuzz(func(t *testing.T, x uint32) {
		if x == 0xfeedf00d {
			return
		}
		mask.Mask([]uint32{x, x + 1})
	})
}
