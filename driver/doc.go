// Package driver is the one library every fuzzbox front end runs fuzz tests
// through: the fuzzbox command (fuzzbox fuzz, cover, corpus minimize and
// merge), the Bazel rules' runner and the LSP sidecar are shells over it and
// its event stream (package event).
//
// It has one shape. One Config (config.go), whose fields mean one thing
// wherever they are read, configures every operation. Resolve (resolve.go)
// turns a selection — package patterns and the Config.Fuzz regexp — into
// targets, one per fuzz test, running go list once per directory and
// building nothing. The operations take targets:
//
//   - Fuzz (fuzz.go, prepare.go, turn.go) builds each target's package into
//     a fuzzing binary once (driver/build), or takes one built elsewhere
//     (Config.Binary, the Bazel rules), and runs it as the coordinator of
//     one fuzz test at a time (taking turns when several share the time),
//     streaming the engine's events to a Handler until its context is
//     cancelled; failures are checked with stock go test (confirm.go,
//     prefuzz.go).
//   - Cover (cover.go, corpusreplay.go, coverprofile.go, mirror.go)
//     measures what a target's corpus covers with a stock coverage test
//     binary.
//   - Replay (replay.go) runs a target's seeds, or one corpus entry, with
//     stock go test and says how it failed.
//
// Every go command goes through gocmd.go and every test binary through the
// child runner (child.go), so that all stop alike when the context is
// cancelled. What the front ends share beyond the operations is here once
// too (flags.go): the flags every fuzzing front end takes (Flags, TagsFlag,
// CacheDirFlag) and Run, a command line's Resolve and Fuzz printed as
// fuzzbox fuzz prints them (RunCover is the same for Cover, in cover.go).
//
// It imports the standard library, corpus, event, driver/build and
// engine/ipc (for the fuzzing binary's flag contract), never the engine
// itself.
//
// The child's contract: the fuzzing binary runs in its package directory
// (reproducers go to testdata/fuzz/FuzzX there), gets -test.fuzz and the
// other testing flags, fuzzbox's -fuzzbox.* flags (engine/ipc/flags.go) and
// the write end of the events pipe as file descriptor ipc.EventsFD; its
// standard output and error, one stream as go test has them, become output
// events.
package driver
