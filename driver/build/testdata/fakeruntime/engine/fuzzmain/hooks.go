package fuzzmain

import _ "unsafe" // for go:linkname

// The comparison hooks of -d=libfuzzer code, defined here as in
// engine/instrument; linking internal/fuzz too would define them twice.
// The integer ones are the runtime's through hooks_link.go, which Toolexec
// leaves out where the runtime has them in assembly (rthooks.go).

//go:linkname libfuzzerHookStrCmp runtime.libfuzzerHookStrCmp
//go:linkname libfuzzerHookEqualFold runtime.libfuzzerHookEqualFold

func libfuzzerTraceCmp1(a, b uint8, pc uint)       {}
func libfuzzerTraceCmp2(a, b uint16, pc uint)      {}
func libfuzzerTraceCmp4(a, b uint32, pc uint)      {}
func libfuzzerTraceCmp8(a, b uint64, pc uint)      {}
func libfuzzerTraceConstCmp1(a, b uint8, pc uint)  {}
func libfuzzerTraceConstCmp2(a, b uint16, pc uint) {}
func libfuzzerTraceConstCmp4(a, b uint32, pc uint) {}
func libfuzzerTraceConstCmp8(a, b uint64, pc uint) {}
func libfuzzerHookStrCmp(a, b string, pc uint)     {}
func libfuzzerHookEqualFold(a, b string, pc uint)  {}
