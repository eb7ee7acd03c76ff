//go:build amd64 || arm64

package fuzzmain

import _ "unsafe" // for go:linkname

// What the runtime's assembly hooks use, as engine/instrument's rthooks.go
// defines it: tracing is never on here.

//go:linkname tracing runtime.fuzzboxTracing
var tracing uint32

//go:linkname traceCmp1 runtime.fuzzboxTraceCmp1
//go:linkname traceCmp2 runtime.fuzzboxTraceCmp2
//go:linkname traceCmp4 runtime.fuzzboxTraceCmp4
//go:linkname traceCmp8 runtime.fuzzboxTraceCmp8
//go:linkname traceConstCmp1 runtime.fuzzboxTraceConstCmp1
//go:linkname traceConstCmp2 runtime.fuzzboxTraceConstCmp2
//go:linkname traceConstCmp4 runtime.fuzzboxTraceConstCmp4
//go:linkname traceConstCmp8 runtime.fuzzboxTraceConstCmp8

func traceCmp1(a, b uint8, pc uint)       {}
func traceCmp2(a, b uint16, pc uint)      {}
func traceCmp4(a, b uint32, pc uint)      {}
func traceCmp8(a, b uint64, pc uint)      {}
func traceConstCmp1(a, b uint8, pc uint)  {}
func traceConstCmp2(a, b uint16, pc uint) {}
func traceConstCmp4(a, b uint32, pc uint) {}
func traceConstCmp8(a, b uint64, pc uint) {}
