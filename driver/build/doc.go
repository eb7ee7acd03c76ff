// Package build turns a user's Go test package into a fuzzbox fuzzing binary.
//
// It is driver-side code: "fuzzbox fuzz" calls Build, the hidden
// "fuzzbox toolexec" command runs Toolexec, and "fuzzbox testmain" (used by
// build systems such as the Bazel rules) runs RewriteTestmain. For OSS-Fuzz
// and ClusterFuzzLite, "fuzzbox build -libfuzzer" calls BuildLibFuzzer and
// "fuzzbox oss-fuzz init" calls WriteOSSFuzz, which writes the project files
// whose build.sh runs it (ossfuzz.go). It is never linked into a fuzz target.
//
// Build runs "go test -c" on the package without touching the user's files:
//
//   - The runtime packages (engine, engine/fuzzmain, engine/ipc,
//     engine/instrument, corpus) are written from the source embedded in the
//     fuzzbox binary to a content-addressed directory under the user cache
//     directory, as the module github.com/fuzzbox/fuzzbox.
//   - A copy of the user's go.mod, passed with -modfile, requires that module
//     and replaces it with the directory, with GOWORK off. A module of a
//     go.work workspace, or one with a vendor directory that go test builds
//     from, is built instead in a workspace fuzzbox writes under the user
//     cache directory: the user's workspace (or the module) with the runtime
//     module added, and for a vendored module a vendor directory of links to
//     the module's (workspace.go). The runtime module declares "go 1.11" so
//     that any user go line accepts it; Toolexec compiles its packages with
//     -lang=go1.26.
//   - An -overlay adds one external test file to the package. It exports
//     FuzzboxMainStart, a wrapper of fuzzmain.MainStart, so that the
//     generated test main can reach fuzzmain through the _xtest import.
//   - -toolexec runs "fuzzbox toolexec" around every tool. It rewrites the
//     generated _testmain.go to call FuzzboxMainStart instead of
//     testing.MainStart(testdeps.TestDeps{}, ...), so the binary never links
//     testing/internal/testdeps (whose internal/fuzz defines the comparison
//     hooks engine/instrument defines), and it compiles every other package
//     with -d=libfuzzer except those in a skip list. On amd64 and arm64 it
//     assembles the runtime with the integer comparison hooks in assembly
//     and compiles engine/instrument without its Go ones (rthooks.go). In a libFuzzer build
//     (the libfuzzer tag), it compiles the runtime with a filter on the
//     comparison hooks' calls into C (cmpfilter.go). It appends its own
//     version to the compiler's -V=full answer, which keys the go build
//     cache: repeat builds are cached, and never mixed up with stock builds.
//     The binary is linked without DWARF (-w), as go test links a binary it
//     runs and removes.
package build
