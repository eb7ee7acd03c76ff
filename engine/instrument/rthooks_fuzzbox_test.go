//go:build fuzzbox && (amd64 || arm64) && !go1.27

package instrument

import (
	"testing"
	_ "unsafe" // for go:linkname
)

// The runtime's integer comparison hooks: in a binary fuzzbox toolexec
// builds (CI: go test -tags fuzzbox -toolexec="fuzzbox toolexec"), the
// assembly of driver/build/rthooks.go, since hooks_link.go is left out.
// Called here by name, which Go 1.27's linker refuses (a reference to a
// runtime symbol by go:linkname); TestInstrumentedCodeRecords calls them
// as instrumented code does, on every release.

//go:linkname rtTraceCmp1 runtime.libfuzzerTraceCmp1
func rtTraceCmp1(a, b uint8, pc uint)

//go:linkname rtTraceCmp2 runtime.libfuzzerTraceCmp2
func rtTraceCmp2(a, b uint16, pc uint)

//go:linkname rtTraceCmp4 runtime.libfuzzerTraceCmp4
func rtTraceCmp4(a, b uint32, pc uint)

//go:linkname rtTraceCmp8 runtime.libfuzzerTraceCmp8
func rtTraceCmp8(a, b uint64, pc uint)

//go:linkname rtTraceConstCmp1 runtime.libfuzzerTraceConstCmp1
func rtTraceConstCmp1(a, b uint8, pc uint)

//go:linkname rtTraceConstCmp2 runtime.libfuzzerTraceConstCmp2
func rtTraceConstCmp2(a, b uint16, pc uint)

//go:linkname rtTraceConstCmp4 runtime.libfuzzerTraceConstCmp4
func rtTraceConstCmp4(a, b uint32, pc uint)

//go:linkname rtTraceConstCmp8 runtime.libfuzzerTraceConstCmp8
func rtTraceConstCmp8(a, b uint64, pc uint)

// TestRuntimeHooksRecord: the runtime's assembly hooks record each kind
// of comparison, with its operands, size and site, while tracing, and
// nothing otherwise.
func TestRuntimeHooksRecord(t *testing.T) {
	rtTraceCmp4(1, 2, 0) // tracing off: dropped
	StartTrace()
	want := callIntHooks(intHooks{
		rtTraceCmp1, rtTraceConstCmp1, rtTraceCmp2, rtTraceConstCmp2,
		rtTraceCmp4, rtTraceConstCmp4, rtTraceCmp8, rtTraceConstCmp8,
	})
	ints, _ := collect()
	rtTraceCmp8(20, 21, 20) // stopped: dropped
	checkInts(t, ints, want)
	if ints, _ := collect(); len(ints) != len(want) {
		t.Errorf("a hook recorded while tracing was off: %d entries, want %d", len(ints), len(want))
	}
}
