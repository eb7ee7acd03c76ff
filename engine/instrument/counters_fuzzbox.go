//go:build fuzzbox

package instrument

import "unsafe"

// The compiler's -d=libfuzzer mode gives every instrumented edge an 8-bit
// counter in a section of its own; the linker defines internal/fuzz._counters
// and internal/fuzz._ecounters at the section's start and end whether or not
// internal/fuzz is linked (cmd/link/internal/ld/data.go). When internal/fuzz
// is linked the linker refuses this reference, hence the build tag.

//go:linkname counters internal/fuzz._counters
var counters [0]byte

//go:linkname ecounters internal/fuzz._ecounters
var ecounters [0]byte

func counterRegion() []byte {
	start := unsafe.Pointer(&counters)
	n := uintptr(unsafe.Pointer(&ecounters)) - uintptr(start)
	return unsafe.Slice((*byte)(start), n)
}
