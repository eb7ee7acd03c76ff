package instrument

import "unsafe"

// The compiler's -d=libfuzzer mode gives every instrumented edge an 8-bit
// counter in a section of its own; the linker defines internal/fuzz._counters
// and internal/fuzz._ecounters at the section's start and end whether or not
// internal/fuzz is linked (cmd/link/internal/ld/data.go).

//go:linkname counters internal/fuzz._counters
var counters [0]byte

//go:linkname ecounters internal/fuzz._ecounters
var ecounters [0]byte

// Counters returns the live edge counters of this process: one byte per
// instrumented edge, incremented (wrapping) each time the edge runs. It is
// empty when nothing was compiled with -d=libfuzzer. The slice aliases the
// counters themselves; callers must not retain copies of it across Reset.
func Counters() []byte {
	start := unsafe.Pointer(&counters)
	n := uintptr(unsafe.Pointer(&ecounters)) - uintptr(start)
	return unsafe.Slice((*byte)(start), n)
}

// Reset zeroes every edge counter.
func Reset() {
	clear(Counters())
}
