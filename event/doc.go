// Package event defines fuzzbox's event stream: the records a fuzzing run
// reports (build, baseline, start, stats, coverage, minimizing, failure,
// flaky, internal_error, done, output, exit), their JSON form (one object per
// line, docs/engine.md) and their one-line text form.
//
// The engine's coordinator produces the events of one target on the events
// file descriptor; the driver (package driver) adds the build, output and
// exit events and the package; the fuzzbox command prints them, the Bazel
// runner saves them and the LSP sidecar turns them into progress, lenses and
// diagnostics. This package imports only the standard library, so every one
// of them can use it.
package event
