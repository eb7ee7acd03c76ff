//go:build fuzzbox

package instrument

import (
	"sync/atomic"
	_ "unsafe" // for go:linkname
)

// The compiler calls these for every comparison in code built with
// -d=libfuzzer. Stock Go defines them as empty functions in internal/fuzz;
// fuzzbox defines them here and records operands while tracing is on.
//
// The definitions are built only with the "fuzzbox" build tag, which
// driver/build sets for fuzzing binaries (and a Bazel fuzzing binary must
// set): without it, a stock test binary of a package that imports the
// engine (its own tests, the fuzzbox command's) links internal/fuzz's
// definitions and would otherwise fail with duplicate symbols.
// They run on the fuzz target's hot path: with tracing off, or once the
// trace's table for their kind is full, each is one atomic load and a branch.

// The integer hooks' go:linkname directives are in hooks_link.go: in
// fuzzbox's own builds on amd64 and arm64 the runtime has them in assembly
// instead (rthooks.go), and these Go functions are no hooks.
//
//go:linkname libfuzzerHookStrCmp runtime.libfuzzerHookStrCmp
//go:linkname libfuzzerHookEqualFold runtime.libfuzzerHookEqualFold

//go:nosplit
//go:norace
func libfuzzerTraceCmp1(a, b uint8, pc uint) {
	if atomic.LoadUint32(&tracing)&traceInts != 0 {
		recordInt(uint64(a), uint64(b), 1, false, pc)
	}
}

//go:nosplit
//go:norace
func libfuzzerTraceCmp2(a, b uint16, pc uint) {
	if atomic.LoadUint32(&tracing)&traceInts != 0 {
		recordInt(uint64(a), uint64(b), 2, false, pc)
	}
}

//go:nosplit
//go:norace
func libfuzzerTraceCmp4(a, b uint32, pc uint) {
	if atomic.LoadUint32(&tracing)&traceInts != 0 {
		recordInt(uint64(a), uint64(b), 4, false, pc)
	}
}

//go:nosplit
//go:norace
func libfuzzerTraceCmp8(a, b uint64, pc uint) {
	if atomic.LoadUint32(&tracing)&traceInts != 0 {
		recordInt(a, b, 8, false, pc)
	}
}

//go:nosplit
//go:norace
func libfuzzerTraceConstCmp1(a, b uint8, pc uint) {
	if atomic.LoadUint32(&tracing)&traceInts != 0 {
		recordInt(uint64(a), uint64(b), 1, true, pc)
	}
}

//go:nosplit
//go:norace
func libfuzzerTraceConstCmp2(a, b uint16, pc uint) {
	if atomic.LoadUint32(&tracing)&traceInts != 0 {
		recordInt(uint64(a), uint64(b), 2, true, pc)
	}
}

//go:nosplit
//go:norace
func libfuzzerTraceConstCmp4(a, b uint32, pc uint) {
	if atomic.LoadUint32(&tracing)&traceInts != 0 {
		recordInt(uint64(a), uint64(b), 4, true, pc)
	}
}

//go:nosplit
//go:norace
func libfuzzerTraceConstCmp8(a, b uint64, pc uint) {
	if atomic.LoadUint32(&tracing)&traceInts != 0 {
		recordInt(a, b, 8, true, pc)
	}
}

//go:nosplit
//go:norace
func libfuzzerHookStrCmp(a, b string, pc uint) {
	if atomic.LoadUint32(&tracing)&traceStrs != 0 {
		recordStr(a, b, false, pc)
	}
}

//go:nosplit
//go:norace
func libfuzzerHookEqualFold(a, b string, pc uint) {
	if atomic.LoadUint32(&tracing)&traceStrs != 0 {
		recordStr(a, b, true, pc)
	}
}
