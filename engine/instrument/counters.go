package instrument

// Counters returns the live edge counters of this process: one byte per
// instrumented edge, incremented (wrapping) each time the edge runs. It is
// empty when nothing was compiled with -d=libfuzzer, and in binaries built
// without the "fuzzbox" tag. The slice aliases the counters themselves.
func Counters() []byte { return counterRegion() }

// Reset zeroes every edge counter.
func Reset() {
	clear(counterRegion())
}
