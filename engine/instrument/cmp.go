package instrument

import "sync/atomic"

// Sizes of the comparison trace tables. A traced execution records at most
// this many unequal comparisons; later ones are dropped.
const (
	MaxIntCmps = 1024
	MaxStrCmps = 256
	MaxStrLen  = 64 // longer string operands are not recorded
)

// IntCmp is one traced integer comparison whose operands differed.
type IntCmp struct {
	A, B  uint64 // the operands, zero-extended
	Size  uint8  // operand width in bytes: 1, 2, 4 or 8
	Const bool   // B (or A) is a compile-time constant
	Site  uint32 // compiler-assigned id of the comparison site
}

// StrCmp is one traced string comparison (==, strings.Compare,
// strings.EqualFold) whose operands differed.
type StrCmp struct {
	A, B       [MaxStrLen]byte // operand bytes; only the first LenA/LenB are valid
	LenA, LenB uint8
	Fold       bool   // from strings.EqualFold
	Site       uint32 // compiler-assigned id of the comparison site
}

// StartTrace clears the trace tables and starts recording comparisons.
// Calls to StartTrace and StopTrace must not overlap.
func StartTrace() {
	nInts.Store(0)
	nStrs.Store(0)
	tracing.Store(1)
}

// StopTrace stops recording and calls fn for each recorded comparison.
// The StrCmp pointer is only valid during the call.
func StopTrace(onInt func(IntCmp), onStr func(*StrCmp)) {
	tracing.Store(0)
	n := min(nInts.Load(), MaxIntCmps)
	for i := range n {
		onInt(ints[i])
	}
	m := min(nStrs.Load(), MaxStrCmps)
	for i := range m {
		onStr(&strs[i])
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
