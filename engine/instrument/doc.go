// Package instrument is fuzzbox's coverage and comparison runtime: the view of
// the compiler's 8-bit edge counters (-gcflags=-d=libfuzzer) and the
// definitions of the runtime's comparison hooks (runtime.libfuzzerTraceCmp*,
// libfuzzerTraceConstCmp*, libfuzzerHookStrCmp, libfuzzerHookEqualFold), which
// the stock internal/fuzz leaves empty. In fuzzbox's own builds on amd64 and
// arm64 the integer hooks are the runtime's assembly instead, which jumps to
// this package's recorders (rthooks.go).
//
// It is linked into every fuzz target built by fuzzbox, so its imports are
// frozen to unsafe, sync/atomic and runtime (checked by deps_test.go) and it
// never imports another package of this module. The engine's worker is its
// only user: it resets the counters before each execution, reads them after,
// and turns comparison tracing on for the executions whose operands it wants.
//
// A binary built with the "fuzzbox" tag that links this package must not
// link internal/fuzz (and so not testing/internal/testdeps): both define the
// runtime hooks. Without the tag the hooks are left to internal/fuzz, so
// stock test binaries of packages that import the engine still link.
package instrument
