// Package driver runs fuzzbox fuzzing runs: it resolves the fuzz tests that
// a package pattern and a -fuzz regexp select, builds each package into a
// fuzzing binary (or takes one built elsewhere, such as by Bazel), starts
// that binary as the coordinator of one fuzz test at a time (taking turns
// when several share the time), streams the engine's events to a callback,
// and stops it all when its context is cancelled. It also replays corpus
// entries (replay.go) and measures what a corpus covers (cover.go).
//
// It is the one driver of every fuzzbox front end: the fuzzbox command
// (fuzzbox fuzz, corpus minimize, cover), the Bazel rules' runner and the
// LSP sidecar are shells over it and its event stream (package event). It
// imports the standard library, corpus, event, driver/build and engine/ipc
// (for the fuzzing binary's flag contract), never the engine itself.
//
// The child's contract: the fuzzing binary runs in its package directory
// (reproducers go to testdata/fuzz/FuzzX there), gets -test.fuzz and the
// other testing flags, fuzzbox's -fuzzbox.* flags (engine/ipc/flags.go) and
// the write end of the events pipe as file descriptor ipc.EventsFD; its
// standard output becomes output events.
package driver
