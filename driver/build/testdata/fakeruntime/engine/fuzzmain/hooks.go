package fuzzmain

import _ "unsafe" // for go:linkname

// The comparison hooks of -d=libfuzzer code, defined here as in
// engine/instrument; linking internal/fuzz too would define them twice.

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
