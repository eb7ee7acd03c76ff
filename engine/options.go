package engine

import (
	"io"
	"reflect"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// Options configure one fuzzing run of one target. The zero value of each
// field is valid unless its comment says otherwise.
type Options struct {
	Target string // fuzz target name, for messages and events ("FuzzX")

	Duration time.Duration // stop fuzzing after this long; 0 means no time limit
	Limit    int64         // stop after this many executions over all workers; 0 means no limit

	// MinimizeDuration and MinimizeLimit bound the minimization of a failing
	// input. Both zero turns minimization off.
	MinimizeDuration time.Duration
	MinimizeLimit    int64

	Parallel int // worker processes; 0 means runtime.GOMAXPROCS(0)

	Seeds []Seed         // the seed corpus (f.Add and testdata/fuzz/<Target>)
	Types []reflect.Type // the fuzz function's argument types after *testing.T; required

	// LeaveOut names corpus inputs the run does not run: a seed as go test
	// -run=FuzzX/name selects it (seed#0, a testdata file's name) or a
	// generated-corpus file's name, which is also the name of an input's
	// file (corpus.Name). The driver sets it for inputs that outlasted
	// -timeout only in fuzzbox's instrumented binary (a slow input go test
	// runs within it), so the fuzz test is fuzzed without them.
	LeaveOut []string

	CorpusDir string // where reproducers are written (testdata/fuzz/<Target>); required
	CacheDir  string // generated corpus; "" means none is read or written

	Timeout    time.Duration // per-input hang limit; 0 means 10s
	RSSLimitMB int           // per-worker resident memory limit in MiB (-rss_limit_mb); 0 means no limit

	Package string // import path of the package under test; its own failures are never taken for fuzzbox's
	// Setup is how long the fuzzing process took from its start to
	// fuzzing (its initialization, TestMain, tests run before, and the
	// fuzz test's code before f.Fuzz); 0 means not known. A worker runs
	// most of that again before it serves inputs: its start may take as
	// long (startLimit).
	Setup time.Duration
	// TestMain says the package's TestMain called testing's M.Run: its
	// code runs in each worker process too, so a worker that dies as it
	// starts may have died there.
	TestMain bool

	KeepGoing bool // continue after a failure, writing one reproducer per unique failure
	KeepFlaky bool // write a reproducer for a failure that did not fail again in a fresh worker

	// SyncDir is a directory shared with other instances fuzzing the same
	// target (docs/engine.md, "Corpus sync"): inputs that add coverage are
	// written to SyncDir/<Target>, and the other instances' are read from
	// there. "" means no sync.
	SyncDir string

	// Plateau stops fuzzing when no input has added coverage for this long
	// (counted from the start of fuzzing, after the baseline); 0 means
	// never. The done event then has Plateau set.
	Plateau time.Duration

	// NoLeaks turns goroutine-leak detection off; false means that an input
	// whose goroutines are left blocked after the fuzz function returned
	// fails with kind leak (docs/engine.md, Failures).
	NoLeaks bool

	// RaceTwin is the path of the same test built with -race (and fuzzbox's
	// test main): one background worker process of it replays each input
	// the corpus gains and each failure's input, and a data race it shows
	// is a failure of kind race (docs/engine.md, "Races"). "" means no twin.
	RaceTwin string

	Schedule string // corpus schedule: "" or ScheduleRoundRobin, or SchedulePower
	NoCmp    bool   // turn comparison tracing off (the benchmark's ablation)

	// DictFile names a dictionary in the AFL/libFuzzer format; "" means
	// none. The file <CorpusDir>.dict (testdata/fuzz/<Target>.dict), if it
	// exists, is read too: stock go test ignores it.
	DictFile string

	// PruneOnly runs the corpus without fuzzing: it keeps a smallest set of
	// generated-corpus entries that reaches the coverage of the whole corpus
	// and deletes the others from CacheDir (fuzzbox corpus minimize). Normal
	// runs prune the same way after their baseline.
	PruneOnly bool

	Log    io.Writer // human-readable progress; nil means os.Stdout
	Events io.Writer // JSON event stream, one Event per line; nil means none (then Log gets status lines)
}

// Seed is one entry of the seed corpus: values (from f.Add) or the bytes of
// a corpus file (from testdata), or both.
type Seed struct {
	Path   string // file path, or a name such as "seed#0" for f.Add values
	Data   []byte // v1 file contents; nil for f.Add values
	Values []any  // decoded values; nil to decode Data
}

// Corpus schedules (docs/engine.md), named once in engine/ipc.
const (
	ScheduleRoundRobin = ipc.ScheduleRoundRobin // each entry in turn, as go test -fuzz does
	SchedulePower      = ipc.SchedulePower      // weighted by the coverage an entry's calls found, its size and speed
)

const defaultTimeout = ipc.DefaultTimeout
