package instrument

import (
	"sync/atomic"
	_ "unsafe" // for go:linkname
)

// The compiler calls these for every comparison in code built with
// -d=libfuzzer. Stock Go defines them as empty functions in internal/fuzz;
// fuzzbox defines them here and records operands while tracing is on.
// They run on the fuzz target's hot path: with tracing off each is one atomic
// load and a branch.

//go:linkname libfuzzerTraceCmp1 runtime.libfuzzerTraceCmp1
//go:linkname libfuzzerTraceCmp2 runtime.libfuzzerTraceCmp2
//go:linkname libfuzzerTraceCmp4 runtime.libfuzzerTraceCmp4
//go:linkname libfuzzerTraceCmp8 runtime.libfuzzerTraceCmp8
//go:linkname libfuzzerTraceConstCmp1 runtime.libfuzzerTraceConstCmp1
//go:linkname libfuzzerTraceConstCmp2 runtime.libfuzzerTraceConstCmp2
//go:linkname libfuzzerTraceConstCmp4 runtime.libfuzzerTraceConstCmp4
//go:linkname libfuzzerTraceConstCmp8 runtime.libfuzzerTraceConstCmp8
//go:linkname libfuzzerHookStrCmp runtime.libfuzzerHookStrCmp
//go:linkname libfuzzerHookEqualFold runtime.libfuzzerHookEqualFold

func libfuzzerTraceCmp1(a, b uint8, pc uint) {
	if tracing.Load() != 0 {
		recordInt(uint64(a), uint64(b), 1, false, pc)
	}
}

func libfuzzerTraceCmp2(a, b uint16, pc uint) {
	if tracing.Load() != 0 {
		recordInt(uint64(a), uint64(b), 2, false, pc)
	}
}

func libfuzzerTraceCmp4(a, b uint32, pc uint) {
	if tracing.Load() != 0 {
		recordInt(uint64(a), uint64(b), 4, false, pc)
	}
}

func libfuzzerTraceCmp8(a, b uint64, pc uint) {
	if tracing.Load() != 0 {
		recordInt(a, b, 8, false, pc)
	}
}

func libfuzzerTraceConstCmp1(a, b uint8, pc uint) {
	if tracing.Load() != 0 {
		recordInt(uint64(a), uint64(b), 1, true, pc)
	}
}

func libfuzzerTraceConstCmp2(a, b uint16, pc uint) {
	if tracing.Load() != 0 {
		recordInt(uint64(a), uint64(b), 2, true, pc)
	}
}

func libfuzzerTraceConstCmp4(a, b uint32, pc uint) {
	if tracing.Load() != 0 {
		recordInt(uint64(a), uint64(b), 4, true, pc)
	}
}

func libfuzzerTraceConstCmp8(a, b uint64, pc uint) {
	if tracing.Load() != 0 {
		recordInt(a, b, 8, true, pc)
	}
}

func libfuzzerHookStrCmp(a, b string, pc uint) {
	if tracing.Load() != 0 {
		recordStr(a, b, false, pc)
	}
}

func libfuzzerHookEqualFold(a, b string, pc uint) {
	if tracing.Load() != 0 {
		recordStr(a, b, true, pc)
	}
}

// Tracing state. Hooks may run on any goroutine of the target, so every
// shared word is accessed atomically (which also keeps -race builds quiet).
var (
	tracing atomic.Uint32 // nonzero while operands are recorded
	nInts   atomic.Uint32 // slots claimed in ints (may exceed len(ints))
	nStrs   atomic.Uint32 // slots claimed in strs (may exceed len(strs))
	ints    [MaxIntCmps]IntCmp
	strs    [MaxStrCmps]StrCmp
)

func recordInt(a, b uint64, size uint8, isConst bool, pc uint) {
	if a == b {
		return // already equal: nothing to learn
	}
	i := nInts.Add(1) - 1
	if i >= MaxIntCmps {
		return
	}
	ints[i] = IntCmp{A: a, B: b, Size: size, Const: isConst, Site: uint32(pc)}
}

func recordStr(a, b string, fold bool, pc uint) {
	if a == b || len(a) > MaxStrLen || len(b) > MaxStrLen {
		return
	}
	i := nStrs.Add(1) - 1
	if i >= MaxStrCmps {
		return
	}
	s := &strs[i]
	s.LenA, s.LenB = uint8(copy(s.A[:], a)), uint8(copy(s.B[:], b))
	s.Fold, s.Site = fold, uint32(pc)
}
