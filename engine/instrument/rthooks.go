//go:build fuzzbox && (amd64 || arm64)

package instrument

import _ "unsafe" // for go:linkname

// In fuzzbox's own fuzzing builds on amd64 and arm64, the runtime defines
// the integer comparison hooks in assembly (driver/build/rthooks.go adds it
// to the runtime's asm_GOARCH.s): a hook with tracing off is a test of
// tracing's traceInts bit and a return, without the frame a Go function
// that may call another sets up, which cost image/gif's FuzzDecode seeds a
// third of their time (22.7 s against 16.7 s under go test -fuzz, whose
// hooks are empty). With the bit set, the hook jumps, its arguments in
// place, to the traceCmp function of its kind below. Elsewhere (Bazel's
// builds, other GOARCHes) the Go hooks of hooks.go are the runtime's, and
// these functions and names are unused.

//go:linkname tracing runtime.fuzzboxTracing
//go:linkname traceCmp1 runtime.fuzzboxTraceCmp1
//go:linkname traceCmp2 runtime.fuzzboxTraceCmp2
//go:linkname traceCmp4 runtime.fuzzboxTraceCmp4
//go:linkname traceCmp8 runtime.fuzzboxTraceCmp8
//go:linkname traceConstCmp1 runtime.fuzzboxTraceConstCmp1
//go:linkname traceConstCmp2 runtime.fuzzboxTraceConstCmp2
//go:linkname traceConstCmp4 runtime.fuzzboxTraceConstCmp4
//go:linkname traceConstCmp8 runtime.fuzzboxTraceConstCmp8

// The assembly tests bit 0 of tracing: traceInts must be it.
var _ = [1]struct{}{}[traceInts-1]

//go:nosplit
//go:norace
func traceCmp1(a, b uint8, pc uint) { recordInt(uint64(a), uint64(b), 1, false, pc) }

//go:nosplit
//go:norace
func traceCmp2(a, b uint16, pc uint) { recordInt(uint64(a), uint64(b), 2, false, pc) }

//go:nosplit
//go:norace
func traceCmp4(a, b uint32, pc uint) { recordInt(uint64(a), uint64(b), 4, false, pc) }

//go:nosplit
//go:norace
func traceCmp8(a, b uint64, pc uint) { recordInt(a, b, 8, false, pc) }

//go:nosplit
//go:norace
func traceConstCmp1(a, b uint8, pc uint) { recordInt(uint64(a), uint64(b), 1, true, pc) }

//go:nosplit
//go:norace
func traceConstCmp2(a, b uint16, pc uint) { recordInt(uint64(a), uint64(b), 2, true, pc) }

//go:nosplit
//go:norace
func traceConstCmp4(a, b uint32, pc uint) { recordInt(uint64(a), uint64(b), 4, true, pc) }

//go:nosplit
//go:norace
func traceConstCmp8(a, b uint64, pc uint) { recordInt(a, b, 8, true, pc) }
