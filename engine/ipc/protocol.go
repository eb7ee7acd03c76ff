package ipc

import "time"

// File descriptors of a worker process. The coordinator passes the files in
// this order in exec.Cmd.ExtraFiles (which start at 3); keep in sync.
const (
	FdIn  = 3 // read end of the coordinator → worker call pipe
	FdOut = 4 // write end of the worker → coordinator response pipe
	FdMem = 5 // the shared-memory file (see Mem)
)

// WorkerExitCode is the exit code of a worker that stops because of a protocol
// or internal error rather than because of the input: engine/fuzzmain exits
// with it when engine.RunWorker returns an error. The coordinator reports such
// an exit as an internal error of fuzzbox (an internal_error event), never as a
// failure of the input, and replaces the worker. The testing package does not
// know this code; nothing else needs to be kept in sync with it.
const WorkerExitCode = 70

// Call is the envelope of one request from the coordinator to a worker.
// Exactly one field is set. The worker answers every call with exactly one
// response of the matching type, in order.
type Call struct {
	Fuzz     *FuzzArgs
	Run      *RunArgs
	Minimize *MinimizeArgs
}

// FuzzArgs asks the worker to mutate the input in shared memory repeatedly
// and execute each mutant, until a limit is reached, an input finds coverage
// the coverage area of the shared memory does not have, or an input fails.
// The coordinator writes its global coverage into the region's coverage area
// before the call.
type FuzzArgs struct {
	Limit    int64         // maximum executions; 0 means no count limit
	Duration time.Duration // wall-clock budget; 0 means no time limit (Limit must then be set)
	Seed     uint64        // seed of the worker's random source for this call
	Trace    bool          // trace comparisons of the base input to guide mutation
	MaxLen   int           // maximum length of a []byte or string value; 0 means the region's capacity
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
}

// FuzzResponse reports how a FuzzArgs call ended. On return the shared
// memory holds the last input executed: the interesting or failing one when
// Interesting or Err is set.
type FuzzResponse struct {
	Execs    int64         // executions done in this call
	Duration time.Duration // wall-clock time spent
	// Interesting reports that the input found coverage missing from the
	// map given; the coverage area then holds that execution's coverage
	// (bucket bits, as a RunResponse leaves it), which a re-run of the
	// input may not reach again (see engine's unstable bits).
	Interesting bool
	Err         string // the input failed with this message ("" = no failure)
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
	Trace bool // also trace comparisons and return their operands as Tokens
}

// RunResponse reports a RunArgs execution.
type RunResponse struct {
	Duration    time.Duration // time the execution took
	Err         string        // the input failed with this message ("" = passed)
	Tokens      [][]byte      // comparison operands seen; nil unless Trace
	InternalErr string        // worker-side problem; "" means none
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
