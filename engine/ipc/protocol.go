package ipc

import (
	"os"
	"time"
)

// File descriptors of a worker process. The coordinator passes the files in
// this order in exec.Cmd.ExtraFiles (which start at 3); keep in sync.
const (
	FdIn  = 3 // read end of the coordinator → worker call pipe
	FdOut = 4 // write end of the worker → coordinator response pipe
	FdMem = 5 // the shared-memory file (see Mem)
)

// Inherited returns the file this process inherited at fd (nil when fd is
// not valid), marked close-on-exec first: the processes the code under
// test starts do not inherit it. A test's leftover child that held the
// fuzzing binary's event pipe (EventsFD) kept the driver waiting, deaf to
// Ctrl-C, until the child ended.
func Inherited(fd uintptr, name string) *os.File {
	f := os.NewFile(fd, name)
	if f != nil {
		CloseOnExec(fd)
	}
	return f
}

// CloseOnExec marks fd close-on-exec, where the platform has it (Inherited).
func CloseOnExec(fd uintptr) { closeOnExec(fd) }

// MoveHigh moves the inherited descriptor fd to one at or above highFD,
// close-on-exec, and closes fd; it returns the new descriptor, or fd
// (marked close-on-exec) where the platform cannot. The fuzzing binary
// moves its event pipe so before any test runs: a test that uses a low
// descriptor of its own (closes descriptor 3, or puts a listener there
// for systemd's socket activation, LISTEN_FDS) cut the pipe, and the
// fuzz test was reported as having skipped itself.
func MoveHigh(fd uintptr) uintptr {
	nfd, err := moveHigh(fd)
	if err != nil {
		closeOnExec(fd)
		return fd
	}
	return nfd
}

// highFD is the least descriptor MoveHigh moves to.
const highFD = 100

// WorkerExitCode is the exit code of a worker that stops because of a protocol
// or internal error rather than because of the input: engine/fuzzmain prints
// WorkerErrorPrefix and the error, then exits with it, when engine.RunWorker
// returns an error. The coordinator reports such an exit as an internal error
// of fuzzbox (an internal_error event), never as a failure of the input, and
// replaces the worker. The testing package exits a worker with the same code
// when its fuzz test failed before f.Fuzz (its fuzzWorkerExitCode), with no
// such line: the coordinator reports that as the fuzz test's failure.
const WorkerExitCode = 70

// WorkerErrorPrefix starts the line engine/fuzzmain prints to standard error
// before it exits with WorkerExitCode.
const WorkerErrorPrefix = "fuzzbox: internal error in the worker"

// Call is the envelope of one request from the coordinator to a worker.
// Exactly one field is set. The worker answers every call with exactly one
// response of the matching type, in order.
type Call struct {
	Fuzz     *FuzzArgs
	Run      *RunArgs
	Minimize *MinimizeArgs
}

// FuzzArgs asks the worker to mutate the input in shared memory repeatedly
// and execute each mutant, until a limit is reached, an input fails (other
// than with a Known signature), or
// Keep after the first input that found coverage the coverage area of the
// shared memory does not have. The coordinator writes its global coverage
// into the region's coverage area before the call.
type FuzzArgs struct {
	Limit    int64         // maximum executions; 0 means no count limit
	Duration time.Duration // wall-clock budget; 0 means no time limit (Limit must then be set)
	Seed     uint64        // seed of the worker's random source for this call
	Trace    bool          // trace comparisons of the base input to guide mutation
	MaxLen   int           // maximum length of a []byte or string value; 0 means the region's capacity
	// Stall is how far the length control's limit (MaxLen) has risen since
	// the corpus last grew: random growth of a mutant, otherwise held to
	// twice its base's longest value plus 4 bytes, may go that much further.
	Stall int
	// Splice holds encoded values of other corpus entries the worker may
	// splice into the base input. Nil means none.
	Splice [][]byte
	// Dict holds dictionary tokens (from -dict and the coordinator's
	// automatic dictionary) the mutator may insert. Nil means none, unless
	// SameDict is set.
	Dict [][]byte
	// SameDict has the worker use the dictionary of its previous fuzz call:
	// the coordinator sends the dictionary to a process only when it
	// changed (it is the largest part of a call, and a parser that finds
	// new coverage every few dozen executions makes a call for each).
	SameDict bool
	// CheckInput has the worker check, after each execution, that the fuzz
	// function left its []byte arguments as it got them (the testing
	// package forbids changing them). False means no check.
	CheckInput bool
	// Keep is how long the call goes on after its first input with new
	// coverage, collecting more (within Limit and Duration, and up to
	// MaxFound inputs); 0 ends the call at the first.
	Keep time.Duration
	// Settle has the worker wait, after each execution that passed and
	// left goroutines the code under test started still running, for them
	// to end (SettleMax at most), with the shared memory's settling flag
	// set: a goroutine that panics after the fuzz function returned then
	// kills the worker while its own input is in shared memory, not a
	// later one. False: no wait (the coordinator sets it once a death on
	// such a goroutine could not be pinned on an input).
	Settle bool
	// Known holds the signatures (the engine's, computed the same way on
	// both sides from a failure's message) of failures the coordinator
	// records no more: those of a -keepgoing run's recorded failures and
	// of failures refused as too flaky; and "at FILE:LINE" for a t.Error
	// or t.Fatal line whose every failure is refused (a fail reported
	// there is known whatever its message). An execution that fails with one
	// of them does not end the call: it is counted in FuzzResponse.Known
	// and fuzzing goes on. A failure whose own code panicked in fuzzbox's
	// packages ends the call whatever its signature. Nil means none,
	// unless SameKnown is set.
	Known []string
	// SameKnown has the worker use the Known of its previous fuzz call
	// (sent only when it changed, as the dictionary).
	SameKnown bool
}

// KnownFailure counts the executions of a fuzz call that failed with one
// of FuzzArgs.Known.
type KnownFailure struct {
	Signature string // the element of FuzzArgs.Known they failed with
	Count     int64  // how many executions did
	Err       string // the first one's message
}

// SettleMax bounds the wait of a settling execution (FuzzArgs.Settle,
// RunArgs.Settle, MinimizeArgs.Settle) for the goroutines it left.
const SettleMax = 250 * time.Millisecond

// MaxFound bounds FuzzResponse.Found: a call that has this many inputs ends.
const MaxFound = 64

// Found is an input a fuzz call found new coverage with.
type Found struct {
	Input []byte // the input, encoded as in shared memory
	// Coverage is the bucket bits of the input's second execution, run at
	// once after the one that found it, sparse-encoded as in the engine's
	// coverage records (per nonzero counter: uvarint gap from the previous
	// one plus one, then the byte). It adds bits to the coverage the call
	// was given and to that of the inputs listed before it.
	Coverage []byte
	Duration time.Duration // the second execution's time
}

// FuzzResponse reports how a FuzzArgs call ended. On return the shared
// memory holds the last input executed: the failing one when Err is set.
type FuzzResponse struct {
	Execs    int64         // executions done in this call, second runs included
	Duration time.Duration // wall-clock time spent
	// Found lists, in the order found, the inputs whose execution set bits
	// missing from the coverage given and from the inputs before them, and
	// whose second execution still did. Each input found is run a second
	// time at once; if that fails, the call ends with Err and the input in
	// shared memory.
	Found []Found
	// Unstable is the bits (sparse-encoded as Found.Coverage) that a first
	// execution reached and its second did not, missing from the coverage
	// given: they come from state the first execution changed (see the
	// engine's unstable bits). Nil when none.
	Unstable []byte
	Err      string // the input failed with this message ("" = no failure)
	// Known counts the executions that failed with a signature of
	// FuzzArgs.Known, one element per signature, in the order first seen.
	// Nil when none did.
	Known []KnownFailure
	// Tokens are operands the worker saw in traced comparisons, for the
	// coordinator's automatic dictionary. Nil when Trace was false.
	Tokens [][]byte
	// InternalErr reports a worker-side problem unrelated to the input
	// (for instance a value that cannot be decoded); "" means none.
	InternalErr string
	// Modified is, with CheckInput, the 1-based index of a []byte argument
	// that an execution of this call changed (0: none did), and
	// ModifiedInput that execution's input, encoded as in shared memory.
	Modified      int
	ModifiedInput []byte
}

// RunArgs asks the worker to execute the input in shared memory once and
// write the coverage it reached into the region's coverage area (one byte per
// edge counter, as bucket bits; see the engine's coverage.go).
type RunArgs struct {
	Trace  bool // also trace comparisons and return their operands as Tokens
	Settle bool // settle after the execution, as FuzzArgs.Settle
	// HeldOOM: the input runs again, in a fresh worker, to confirm an oom
	// of the worker's heap check: in another worker it kept more than the
	// memory limit in the heap while it ran, for the check's full wait
	// (the engine's heldFor), and after a full collection. The check then
	// waits a shorter time (the engine's confirmHeld): the full wait told
	// a held buffer from one dropped at once, and the re-run only has to
	// show that the input holds the memory again. Other ooms (resident
	// memory, memory left live at return) are confirmed under the full
	// wait, so that a buffer held for less than it is never made an oom by
	// a re-run. A re-run already running when the oom came (the engine's
	// early confirmation) is told the same through Mem.SetHeld.
	HeldOOM bool
}

// RunResponse reports a RunArgs execution.
type RunResponse struct {
	Duration time.Duration // time the execution took
	Err      string        // the input failed with this message ("" = passed)
	// Tokens are the comparison operands seen that this worker process
	// has not reported before (in any call); nil unless Trace.
	Tokens      [][]byte
	InternalErr string // worker-side problem; "" means none
}

// MinimizeArgs asks the worker to shrink the input in shared memory while it
// keeps failing with the same kind of failure at the same place (the same
// Kind and, unless Key is "", the same Key). The worker writes every
// candidate into shared memory before running it, so if a candidate kills
// the worker the coordinator has that candidate: that is how failures that
// kill the worker (hang, oom, fatal, exit) are minimized, one fresh worker
// per smaller candidate found. The candidates
// follow from the input alone (and from which were kept), so a call from the
// same input with Refuse set goes on past candidates that killed an earlier
// worker some other way.
type MinimizeArgs struct {
	Limit    int64         // maximum executions; 0 means no count limit
	Duration time.Duration // wall-clock budget; 0 means no time limit
	Kind     string        // the failure kind to keep ("panic", "fail", "hang", ...)
	Key      string        // where the failure must happen too (engine's failureKey); "" keeps any failure of Kind
	Refuse   []int64       // candidates to refuse without running (not counted in Execs or Limit), ascending, by place in the order proposed from 0
	Settle   bool          // settle after each candidate, as FuzzArgs.Settle
}

// MinimizeResponse reports a MinimizeArgs call. On return the shared memory
// holds the smallest input found that still satisfies the condition (the
// original input when Smaller is false).
type MinimizeResponse struct {
	Execs       int64         // executions done
	Duration    time.Duration // wall-clock time spent
	Smaller     bool          // a smaller input was found
	CutShort    bool          // the budget ran out before every candidate was tried
	Err         string        // failure message of the input left in memory
	InternalErr string        // worker-side problem; "" means none
}
