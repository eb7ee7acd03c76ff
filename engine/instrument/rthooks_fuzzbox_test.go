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
	rtTraceCmp1(0xf1, 2, 11)
	rtTraceCmp2(0xf003, 4, 12)
	rtTraceCmp4(0xf0000005, 6, 13)
	rtTraceCmp8(0xf000000000000007, 8, 14)
	rtTraceConstCmp1(9, 10, 15)
	rtTraceConstCmp2(11, 12, 16)
	rtTraceConstCmp4(13, 14, 17)
	rtTraceConstCmp8(15, 16, 18)
	rtTraceCmp8(99, 99, 19) // equal: dropped
	ints, _ := collect()
	rtTraceCmp8(20, 21, 20) // stopped: dropped
	want := []IntCmp{
		{A: 0xf1, B: 2, Size: 1, Site: 11}, {A: 0xf003, B: 4, Size: 2, Site: 12}, {A: 0xf0000005, B: 6, Size: 4, Site: 13},
		{A: 0xf000000000000007, B: 8, Size: 8, Site: 14},
		{A: 9, B: 10, Size: 1, Const: true, Site: 15}, {A: 11, B: 12, Size: 2, Const: true, Site: 16},
		{A: 13, B: 14, Size: 4, Const: true, Site: 17}, {A: 15, B: 16, Size: 8, Const: true, Site: 18},
	}
	if len(ints) != len(want) {
		t.Fatalf("recorded %+v, want %+v", ints, want)
	}
	for i := range want {
		if ints[i] != want[i] {
			t.Errorf("comparison %d = %+v, want %+v", i, ints[i], want[i])
		}
	}
	if ints, _ := collect(); len(ints) != len(want) {
		t.Errorf("a hook recorded while tracing was off: %d entries, want %d", len(ints), len(want))
	}
}
