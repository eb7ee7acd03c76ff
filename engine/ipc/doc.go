// Package ipc holds the contracts between fuzzbox's processes. Its main part
// is the wire between the fuzzbox coordinator and its worker processes: the
// call/response messages sent over a pair of pipes, and the shared-memory
// region holding the input under execution and coverage. flags.go is the
// smaller contract between the driver (package driver) and the fuzzing
// binary it starts: flag names, the events file descriptor and defaults.
//
// The engine package uses the wire on both sides: the coordinator creates
// the pipes and the region and passes them to each worker it starts (the same
// test binary re-executed with -test.fuzzworker) as the file descriptors
// FdIn, FdOut and FdMem. The worker writes every input into the region
// before executing it, so when an input kills the worker the coordinator still
// has it.
//
// ipc moves bytes and knows nothing of corpus values: the engine encodes them.
// It imports only the standard library.
package ipc
