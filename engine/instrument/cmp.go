package instrument

import "sync/atomic"

// Sizes of the comparison trace tables. A traced execution records at most
// this many unequal comparisons; later ones are dropped.
const (
	MaxIntCmps = 1024
	MaxStrCmps = 256
	MaxStrLen  = 64 // longer string operands are not recorded
	// MaxTracedCmps bounds the comparisons a trace looks at: past it,
	// tracing stops until the next StartTrace. Each costs a call and, when
	// unequal, a hash even when it repeats one seen before, and a
	// backtracking matcher that compares characters billions of times on a
	// long input (dlclark/regexp2) ran twice as long traced as untraced,
	// past the hang timeout, where go test took 1.2 s.
	MaxTracedCmps = 1 << 20
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
	atomic.StoreUint32(&nInts, 0)
	atomic.StoreUint32(&nStrs, 0)
	atomic.StoreUint32(&nLooked, 0)
	atomic.AddUint64(&gen, 1) // forgets the operands seen by the previous trace
	atomic.StoreUint32(&tracing, traceInts|traceStrs)
}

// StopTrace stops recording and calls fn for each recorded comparison.
// The StrCmp pointer is only valid during the call.
func StopTrace(onInt func(IntCmp), onStr func(*StrCmp)) {
	atomic.StoreUint32(&tracing, 0)
	n := min(atomic.LoadUint32(&nInts), MaxIntCmps)
	for i := range n {
		onInt(ints[i])
	}
	m := min(atomic.LoadUint32(&nStrs), MaxStrCmps)
	for i := range m {
		onStr(&strs[i])
	}
}

// Tracing state. Hooks may run on any goroutine of the target, so every
// shared word is accessed atomically (which also keeps -race builds quiet).
//
// The words are plain integers used through sync/atomic's functions, not
// atomic.Uint32 and friends: the hooks must not call Go functions that may
// grow the stack (see hooks.go), and the types' methods are calls in a build
// without inlining (-gcflags=-l, as debuggers use), where the functions are
// assembly that never does.
var (
	tracing uint32 // traceInts|traceStrs: the kinds of comparison recorded now
	nInts   uint32 // slots claimed in ints (may exceed len(ints))
	nStrs   uint32 // slots claimed in strs (may exceed len(strs))
	nLooked uint32 // comparisons looked at in this trace (may exceed MaxTracedCmps)
	ints    [MaxIntCmps]IntCmp
	strs    [MaxStrCmps]StrCmp
	gen     uint64 // trace generation, mixed into seen's tags
	seen    [seenSlots]uint32
)

// The bits of tracing. A kind's bit is cleared when its table is full: the
// hooks of that kind then return at once, as with tracing off. Before, each
// comparison after the table filled still counted toward MaxTracedCmps:
// klauspost/compress's flate clears a 128-K-entry table with one traced
// loop comparison per element, and its baseline (every seed traced) ran at
// half go test's pace, a third of its time in recordInt.
const (
	traceInts = 1 << iota
	traceStrs
)

// A trace records each distinct comparison once. A parser compares every
// input byte with the same few characters, and a loop compares a counter
// with the same bound on every turn: without this, those repeats fill the
// tables (later comparisons, deeper in the input, are dropped) and the
// worker derives the same substitutions over and over. seen is a
// direct-mapped table of hashes of the operands recorded in this trace; a
// collision only lets a repeat through.
const seenSlots = 1 << 12

// Everything below runs inside the hooks and is go:nosplit for the reason
// hooks.go gives; go:norace keeps the race detector from instrumenting what
// runs inside the user's code (a target's goroutine still comparing after
// its call returned would otherwise be reported as a race with StopTrace).

// spent counts a comparison looked at and reports whether the trace has
// looked at MaxTracedCmps already; then it turns tracing off.
//
//go:nosplit
//go:norace
func spent() bool {
	if atomic.AddUint32(&nLooked, 1) <= MaxTracedCmps {
		return false
	}
	atomic.StoreUint32(&tracing, 0)
	return true
}

// firstSight reports whether no comparison with hash h was recorded in this
// trace, and remembers h.
//
//go:nosplit
//go:norace
func firstSight(h uint64) bool {
	h = mix(h ^ atomic.LoadUint64(&gen)*0x9e3779b97f4a7c15)
	slot := &seen[h&(seenSlots-1)]
	tag := uint32(h>>32) | 1 // never 0, the value of a slot never used
	if atomic.LoadUint32(slot) == tag {
		return false
	}
	atomic.StoreUint32(slot, tag)
	return true
}

// mix is a 64-bit finalizer (splitmix64's).
//
//go:nosplit
//go:norace
func mix(h uint64) uint64 {
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	return h ^ h>>31
}

//go:nosplit
//go:norace
func intKey(a, b uint64, size uint8, isConst bool) uint64 {
	k := mix(a)*31 ^ mix(b^0x51ed270b27a5d0f3) ^ uint64(size)<<1
	if isConst {
		k ^= 1
	}
	return k
}

// strKey hashes a and b (FNV-1a) and fold.
//
//go:nosplit
//go:norace
func strKey(a, b string, fold bool) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(a); i++ {
		h = (h ^ uint64(a[i])) * 1099511628211
	}
	h = (h ^ 0x100) * 1099511628211 // separator: ("ab","c") differs from ("a","bc")
	for i := 0; i < len(b); i++ {
		h = (h ^ uint64(b[i])) * 1099511628211
	}
	if fold {
		h ^= 0x200
	}
	return h
}

//go:nosplit
//go:norace
func recordInt(a, b uint64, size uint8, isConst bool, pc uint) {
	// A full table drops the rest: checked first, so that code comparing
	// billions of times (a compressor) pays no hash for each once it is.
	if spent() || a == b || atomic.LoadUint32(&nInts) >= MaxIntCmps || !firstSight(intKey(a, b, size, isConst)) {
		return // already equal (nothing to learn), or a repeat
	}
	i := atomic.AddUint32(&nInts, 1) - 1
	if i >= MaxIntCmps-1 {
		atomic.AndUint32(&tracing, ^uint32(traceInts)) // full: the int hooks stop calling
		if i >= MaxIntCmps {
			return
		}
	}
	ints[i] = IntCmp{A: a, B: b, Size: size, Const: isConst, Site: uint32(pc)}
}

//go:nosplit
//go:norace
func recordStr(a, b string, fold bool, pc uint) {
	if spent() || a == b || len(a) > MaxStrLen || len(b) > MaxStrLen || atomic.LoadUint32(&nStrs) >= MaxStrCmps || !firstSight(strKey(a, b, fold)) {
		return
	}
	i := atomic.AddUint32(&nStrs, 1) - 1
	if i >= MaxStrCmps-1 {
		atomic.AndUint32(&tracing, ^uint32(traceStrs))
		if i >= MaxStrCmps {
			return
		}
	}
	s := &strs[i]
	s.LenA, s.LenB = uint8(copy(s.A[:], a)), uint8(copy(s.B[:], b))
	s.Fold, s.Site = fold, uint32(pc)
}
