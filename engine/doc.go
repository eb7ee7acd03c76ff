// Package engine is fuzzbox's fuzzing engine: the coordinator that schedules
// the corpus, keeps the global coverage map and handles failures, and the
// worker that mutates inputs and executes the fuzz function.
//
// Both run inside the user's test binary, built by fuzzbox with
// -d=libfuzzer instrumentation and a test main that hands the testing
// package engine/fuzzmain's deps: with -test.fuzz the testing package calls
// Coordinate, which re-executes the binary with -test.fuzzworker as worker
// processes; in those, it calls RunWorker. Coordinator and workers talk over
// engine/ipc; workers read coverage and comparisons through
// engine/instrument; inputs are stored in the "go test fuzz v1" format of
// package corpus, so stock go test replays every reproducer.
//
// Users: engine/fuzzmain (the only caller of Coordinate, RunWorker,
// ResetCoverage and SnapshotCoverage) and the fuzzbox command, which decodes
// the Event stream.
//
// The engine is built from source into every fuzzing binary, so it imports
// only the standard library and corpus, engine/ipc and engine/instrument.
package engine
