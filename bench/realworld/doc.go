// Package realworld holds nothing itself: each subdirectory is one fuzz
// target of the fuzzbox benchmark's real-world set (go run ./bench
// -set=realworld from the repository root), a historical bug in a public Go
// module pinned at a version that has it. This is a separate module so that
// the fuzzbox module's ./... never includes the targets, and so that go.mod
// can require the old, buggy versions.
//
// Every target's package comment names the module and the buggy version, the
// first fixed version, the upstream report, what the bug is, and a
// "Signature:" line: a regular expression the benchmark matches against an
// engine's failure report (the line "kind=<kind>" followed by the engine's
// failure output) to decide that the failure is the known bug and not some
// other one. The inputs that trigger the bugs are only in verify/, behind the
// verify build tag: go test -tags=verify ./... proves that each bug exists at
// the pinned version. They are not in the targets' seeds or testdata.
package realworld
