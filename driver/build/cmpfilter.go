package build

// The runtime of the libFuzzer binaries: the comparison filter, and the
// edge counters the engine reads (shadowCounters).
//
// Under the libfuzzer build tag the runtime forwards every comparison the
// compiler instruments to libFuzzer's __sanitizer_cov_trace_cmp*
// (runtime/libfuzzer.go): each is a switch to the system stack and a call
// into C that returns through a sled of ret instructions, so that each
// comparison site gets a return address of its own. Code under test that
// compares in a loop (a table cleared element by element, a scan for a
// delimiter) pays that on every iteration: klauspost/compress's flate spends
// two thirds of its time there. libFuzzer keeps two things of a comparison:
// two value-profile features (bits of a 64-Kbit map it clears before each
// input: the site's PC*128 plus the operands' Hamming distance, and PC*128 +
// 64 plus their distance's leading-zero count) and the operands, in a small
// table of recent comparisons the mutator draws from (TORC).
//
// So the libFuzzer build compiles the runtime with each forwarding call
// going through a filter (cmpFilterSource) that keeps a copy of those
// features for the current input, in C memory the engine's entry point
// clears before each input (fuzzbox_cmp_seen, engine/libfuzzer/shim.go), and
// skips the call when both features are already set, after the site's first
// eight comparisons of the input. The value-profile map libFuzzer sees is the
// same (the copy is indexed by the site's sled offset, at least as fine as
// libFuzzer's PC); the table of recent comparisons gets, of a site in a loop,
// the first eight operands of each input and those of each new pair of
// features, instead of every one. Comparisons outside the fuzz function
// (the fuzz test's setup, testing's work around each input) are not
// forwarded at all (fuzzboxCmpMuted), and under AFL++, whose CmpLog wants
// every operand, the fuzz function's are all forwarded (fuzzboxCmpFilter).

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// traceCall matches the runtime's forwarding of one comparison hook, a
// statement of its own: libfuzzerCallTraceIntCmp(&__sanitizer_cov_trace_
// [const_]cmpN, ARGS).
var traceCall = regexp.MustCompile(`libfuzzerCallTraceIntCmp\(&(__sanitizer_cov_trace_(?:const_)?cmp([1248])), ([^\n]*)\)\n`)

// traceCalls is the number of forwarding calls runtime/libfuzzer.go has:
// cmp and const_cmp for 1, 2, 4 and 8 bytes.
const traceCalls = 8

// traceCallFiltered is what filterTraceCalls puts in place of a call: %[1]s
// the hook, %[2]s its arguments, %[3]s the mask of the operands' difference.
const traceCallFiltered = "if a0, a1, pc, pass := fuzzboxCmpPass(%[2]s, %[3]s); pass {\n\t\tlibfuzzerCallTraceIntCmp(&%[1]s, a0, a1, pc)\n\t}\n"

// strHook is the runtime's forwarding of a string comparison
// (libfuzzerHookStrCmp, libfuzzerHookEqualFold), and strHookMuted what
// muteStrHooks puts in its place.
const (
	strHook      = "if s1 != s2 {\n\t\tlibfuzzerCall4(&__sanitizer_weak_hook_strcmp,"
	strHookMuted = "if fuzzbox_cmp_mode&fuzzboxCmpMuted == 0 && s1 != s2 {\n\t\tlibfuzzerCall4(&__sanitizer_weak_hook_strcmp,"
)

// countersInit is the runtime's registration of its edge counters with the
// engine, and countersShadow what shadowCounters puts in its place.
const (
	countersInit   = "libfuzzerCallWithTwoByteBuffers(&__sanitizer_cov_8bit_counters_init, &__start___sancov_cntrs, &__stop___sancov_cntrs)"
	countersShadow = "libfuzzerCallWithTwoByteBuffers(&fuzzbox_counters_init, &__start___sancov_cntrs, &__stop___sancov_cntrs)"
)

// runtimeRewriteID identifies the rewrite of the runtime (the filter's
// source, the filtered calls, the shadowed counters, the muted string
// hooks, the gated wake-ups) and of testing (testingrewrite.go), for the
// compiler's version that keys the go build cache (versionLine).
func runtimeRewriteID() string {
	sum := sha256.Sum256([]byte(cmpFilterSource + "\x00" + traceCall.String() + "\x00" + traceCallFiltered + "\x00" + countersShadow + "\x00" + strHookMuted +
		"\x00" + wakeGateSource + "\x00" + newprocGated + "\x00" + readyGated + "\x00" + testingRewriteID + "\x00" + rtHooksSource("amd64") + rtHooksSource("arm64")))
	return hex.EncodeToString(sum[:6])
}

// filterTraceCalls returns the runtime source src with each of its
// comparison hooks' calls into C made only when the filter lets it through,
// or nil if src does not have the calls it expects (another Go release's
// runtime), which is then compiled as it is.
//
// The hooks are go:nosplit, and so is code that compares and calls them:
// github.com/pjbgf/sha1cd/ubc's calculateDvMaskGeneric has a 720-byte frame,
// and the hook's 48 bytes and the call into C's 16 leave it 8 of the 792
// bytes the linker allows. So the hook calls one leaf, fuzzboxCmpPass, whose
// frame is no larger than the call into C's, and which hands back the
// arguments of that call, so that the hook keeps nothing across it (kept,
// they would be spilled into its frame; the check inlined, its values
// would be): the chain grows by nothing (TestCmpFilterNosplit).
func filterTraceCalls(src []byte) []byte {
	if len(traceCall.FindAll(src, -1)) != traceCalls {
		return nil
	}
	return traceCall.ReplaceAllFunc(src, func(call []byte) []byte {
		m := traceCall.FindSubmatch(call)
		mask := "^uint64(0)"
		if string(m[2]) == "4" {
			// libFuzzer subtracts 4-byte operands as uint32; 1- and
			// 2-byte ones promoted to int, which sign-extends their
			// difference as 64-bit arithmetic does.
			mask = "0xffffffff"
		}
		return fmt.Appendf(nil, traceCallFiltered, m[1], m[3], mask)
	})
}

// shadowCounters returns the runtime source src with its edge counters
// registered through engine/libfuzzer's fuzzbox_counters_init, or nil if
// src does not register them as expected.
//
// go test counts the edges the fuzz function hits (testing's ResetCoverage
// before it, SnapshotCoverage after), and the engine of these binaries
// reads the counters after the whole input: testing's report of it, which
// formats its duration through the instrumented fmt, and the test's
// cleanups (t.TempDir's removal) would count too (nobug: 49 edges of 347,
// some of them depending on the clock). So the engine is given a shadow of
// the counters that the C side clears before each input, as it clears the
// counters, and that testing's SnapshotCoverage fills from them; its
// ResetCoverage clears them.
func shadowCounters(src []byte) []byte {
	if bytes.Count(src, []byte(countersInit)) != 1 {
		return nil
	}
	return bytes.Replace(src, []byte(countersInit), []byte(countersShadow), 1)
}

// muteStrHooks returns the runtime source src with its two string
// comparison hooks forwarding nothing while comparisons are muted (outside
// the fuzz function), as the integer hooks' filter does, or nil if src does
// not have them as expected.
func muteStrHooks(src []byte) []byte {
	if bytes.Count(src, []byte(strHook)) != 2 {
		return nil
	}
	return bytes.ReplaceAll(src, []byte(strHook), []byte(strHookMuted))
}

// cmpFilterSource is the runtime file that defines the filter.
const cmpFilterSource = `// Code generated by fuzzbox (driver/build/cmpfilter.go). DO NOT EDIT.

package runtime

import (
	"internal/runtime/sys"
	"unsafe"
)

// fuzzbox_cmp_mode (fuzzboxCmpFilter, fuzzboxCmpMuted), fuzzbox_cmp_seen
// (the current input's value-profile features, 1<<16 bits) and
// fuzzbox_cmp_sites (the number of comparisons each site has forwarded in
// the input, up to fuzzboxCmpFirst) are defined in C by engine/libfuzzer.

//go:linkname fuzzbox_cmp_mode fuzzbox_cmp_mode
//go:cgo_import_static fuzzbox_cmp_mode
var fuzzbox_cmp_mode byte

//go:linkname fuzzbox_cmp_seen fuzzbox_cmp_seen
//go:cgo_import_static fuzzbox_cmp_seen
var fuzzbox_cmp_seen byte

//go:linkname fuzzbox_cmp_sites fuzzbox_cmp_sites
//go:cgo_import_static fuzzbox_cmp_sites
var fuzzbox_cmp_sites byte

// fuzzbox_counters_init registers the edge counters with the engine in
// place of __sanitizer_cov_8bit_counters_init (shadowCounters): the engine
// reads a copy of them that holds the fuzz function's hits only.

//go:linkname fuzzbox_counters_init fuzzbox_counters_init
//go:cgo_import_static fuzzbox_counters_init
var fuzzbox_counters_init byte

// fuzzboxCmpFirst is how many comparisons of a site an input forwards
// whatever their features: the operands libFuzzer's tables of recent
// comparisons get from a site in a loop are its first few, as well as
// those of later iterations with new features.
const fuzzboxCmpFirst = 8

// The bits of fuzzbox_cmp_mode: fuzzboxCmpFilter, forward only what the
// filter lets through (clear: every comparison); fuzzboxCmpMuted, forward
// nothing (outside the fuzz function's run: setup, and testing's work
// before and after it).
const (
	fuzzboxCmpFilter = 1
	fuzzboxCmpMuted  = 2
)

// fuzzboxCmpPass reports whether a comparison of arg0 and arg1 at fakePC
// is to be forwarded: whether it is one of the site's first fuzzboxCmpFirst
// in the input, or one of its two value-profile features is not set yet in
// the input (it sets them), the operands' difference taken in dmask's width,
// as libFuzzer's TracePC::HandleCmp takes it. It returns the
// arguments of the call into C, so that the hook keeps nothing across this
// call, and calls nothing (the population count is by hand, as
// sys.OnesCount64 calls a function where POPCNT is not assumed): with no
// frame of its own, it leaves the hooks' stack use as it was.
//
//go:nosplit
//go:noinline
func fuzzboxCmpPass(arg0, arg1, fakePC uintptr, dmask uint64) (uintptr, uintptr, uintptr, bool) {
	if mode := fuzzbox_cmp_mode; mode&fuzzboxCmpMuted != 0 {
		return arg0, arg1, fakePC, false
	} else if mode&fuzzboxCmpFilter == 0 {
		return arg0, arg1, fakePC, true
	}
	x, d := uint64(arg0^arg1), uint64(arg0-arg1)&dmask
	ad := uintptr(0)
	if d != 0 {
		ad = uintptr(sys.LeadingZeros64(d)) + 1
	}
	x -= (x >> 1) & 0x5555555555555555
	x = (x>>2)&0x3333333333333333 + x&0x3333333333333333
	x = (x + x>>4) & 0x0f0f0f0f0f0f0f0f
	hd := uintptr((x * 0x0101010101010101) >> 56)
	i := (fakePC*128 + hd) & 0xffff
	j := (fakePC*128 + 64 + ad) & 0xffff
	seen := (*[1 << 13]uint8)(unsafe.Pointer(&fuzzbox_cmp_seen))
	bi, bj := uint8(1)<<(i&7), uint8(1)<<(j&7)
	pass := seen[i>>3]&bi == 0 || seen[j>>3]&bj == 0
	seen[i>>3] |= bi
	seen[j>>3] |= bj
	sites := (*[512]uint8)(unsafe.Pointer(&fuzzbox_cmp_sites))
	if n := sites[fakePC&511]; n < fuzzboxCmpFirst {
		sites[fakePC&511] = n + 1
		pass = true
	}
	return arg0, arg1, fakePC, pass
}
`

// rewriteRuntimeArgs changes the compiler arguments of the runtime package
// built with the libfuzzer tag: its libfuzzer.go is replaced by a copy with
// filtered calls (filterTraceCalls), shadowed counters (shadowCounters) and
// muted string hooks (muteStrHooks), and the filter's file is added, both
// written beside the compiler's output; so is proc.go, by one with gated
// wake-ups (gateProcArgs: wakegate.go). Arguments without
// runtime/libfuzzer.go, or with one that lacks what a rewrite expects
// (another Go release's), are returned as they are.
func rewriteRuntimeArgs(args []string) ([]string, error) {
	at := -1
	for i, a := range args[1:] {
		if filepath.Base(a) == "libfuzzer.go" && filepath.Base(filepath.Dir(a)) == "runtime" {
			at = i + 1
		}
	}
	if at < 0 {
		return args, nil
	}
	src, err := os.ReadFile(args[at])
	if err != nil {
		return nil, fmt.Errorf("libFuzzer runtime rewrite: %w", err)
	}
	filtered := muteStrHooks(shadowCounters(filterTraceCalls(src)))
	if filtered == nil {
		return args, nil
	}
	dir := filepath.Dir(flagValue(args, "-o"))
	hooks := filepath.Join(dir, "libfuzzer.go")
	filter := filepath.Join(dir, "fuzzbox_cmpfilter.go")
	if err := os.WriteFile(hooks, filtered, 0o666); err != nil {
		return nil, fmt.Errorf("libFuzzer runtime rewrite: %w", err)
	}
	if err := os.WriteFile(filter, []byte(cmpFilterSource), 0o666); err != nil {
		return nil, fmt.Errorf("libFuzzer runtime rewrite: %w", err)
	}
	out := append([]string{}, args...)
	out[at] = hooks
	out = append(out, filter)
	return gateProcArgs(out, dir)
}

// gateProcArgs replaces runtime/proc.go among the runtime's compiler
// arguments by a copy with gated wake-ups (gateWakeups), written to dir
// with the file that declares the gate, or returns args as they are if
// proc.go is not there as expected.
func gateProcArgs(args []string, dir string) ([]string, error) {
	return replaceSource(args, dir, "runtime", "proc.go", gateWakeups, "fuzzbox_wake.go", wakeGateSource)
}
