package fuzzmain

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/engine"
	"github.com/fuzzbox/fuzzbox/engine/basedeps"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// corpusEntry must be identical to testing's unexported corpusEntry alias
// (testing/fuzz.go) for deps to implement the testing package's testDeps.
type corpusEntry = struct {
	Parent     string
	Path       string
	Data       []byte
	Values     []any
	Generation int
	IsSeed     bool
}

// processStart is about when the process started: its packages'
// initialization (engine.Options.Setup).
var processStart = time.Now()

// fuzzbox's own flags, next to the testing package's (names and defaults in
// engine/ipc/flags.go, the driver's side of the contract). The driver sets
// them in the environment (ipc.FlagsEnv); a user running the binary by hand
// may on its command line too. They live in a flag set of their own, which
// MainStart shares onto flag.CommandLine as it is then: registered there at
// package initialization, they were lost when a package that initializes
// later (by import path: golang.org/x/..., k8s.io/...) replaced
// flag.CommandLine, and the binary refused its own flags.
var (
	own = flag.NewFlagSet("fuzzbox", flag.ContinueOnError)

	flagTimeout    = own.Duration(ipc.FlagTimeout, ipc.DefaultTimeout, "fail an input that runs longer than this (hang)")
	flagRSSLimitMB = own.Int(ipc.FlagRSSLimitMB, ipc.DefaultRSSLimitMB, "fail an input that makes a worker's resident memory exceed this many MiB (0: no limit)")
	flagEventsFD   = own.Int(ipc.FlagEventsFD, -1, "write the JSON event stream to this inherited file descriptor")
	flagKeepGoing  = own.Bool(ipc.FlagKeepGoing, false, "keep fuzzing after a failure; write one reproducer per unique failure")
	flagKeepFlaky  = own.Bool(ipc.FlagKeepFlaky, false, "write a reproducer for a failure that did not fail again in a fresh worker")
	flagDict       = own.String(ipc.FlagDict, "", "dictionary file (AFL/libFuzzer format) for the mutator")
	flagPruneOnly  = own.Bool(ipc.FlagPruneOnly, false, "run the corpus, delete redundant generated-corpus entries, and stop without fuzzing")
	flagSchedule   = own.String(ipc.FlagSchedule, engine.ScheduleRoundRobin, "corpus schedule: roundrobin or power")
	flagNoCmp      = own.Bool(ipc.FlagNoCmp, false, "turn comparison tracing off (ablation)")
	flagNoLeaks    = own.Bool(ipc.FlagNoLeaks, false, "turn goroutine-leak detection off (failures of kind leak)")
	flagPlateau    = own.Duration(ipc.FlagPlateau, 0, "stop fuzzing after this long without new coverage (0: never)")
	flagSync       = own.String(ipc.FlagSync, "", "directory shared with other instances: publish inputs that add coverage, import theirs")
	flagRaceTwin   = own.String(ipc.FlagRaceTwin, "", "the same test built with -race: replay each new corpus entry in it and report data races")
	flagLeaveOut   = own.String(ipc.FlagLeaveOut, "", "corpus inputs not to run (seed#0, a corpus file's name), separated by "+ipc.LeaveOutSep)
)

// deps implements the testing package's testDeps interface: basedeps for
// what is not fuzzing, the fuzzbox engine for fuzzing.
type deps struct {
	basedeps.Deps
}

func (d *deps) ResetCoverage()    { engine.ResetCoverage() }
func (d *deps) SnapshotCoverage() { engine.SnapshotCoverage() }

// ReadCorpus implements testDeps.
func (d *deps) ReadCorpus(dir string, types []reflect.Type) ([]corpusEntry, error) {
	entries, err := corpus.ReadDir(dir, types)
	out := make([]corpusEntry, len(entries))
	for i, e := range entries {
		out[i] = corpusEntry{Path: e.Path, Data: e.Data, Values: e.Values}
	}
	return out, err
}

// CoordinateFuzzing implements testDeps: it runs the fuzzbox coordinator.
func (d *deps) CoordinateFuzzing(timeout time.Duration, limit int64, minimizeTimeout time.Duration, minimizeLimit int64, parallel int, seeds []corpusEntry, types []reflect.Type, corpusDir, cacheDir string) error {
	if flagsErr != nil {
		return flagsErr
	}
	opts := engine.Options{
		Target:           filepath.Base(corpusDir),
		Duration:         timeout,
		Limit:            limit,
		MinimizeDuration: minimizeTimeout,
		MinimizeLimit:    minimizeLimit,
		Parallel:         parallel,
		Types:            types,
		CorpusDir:        corpusDir,
		CacheDir:         cacheDir,
		Timeout:          *flagTimeout,
		RSSLimitMB:       *flagRSSLimitMB,
		Package:          d.Import,
		Setup:            time.Since(processStart),
		TestMain:         basedeps.InTestMain(),
		KeepGoing:        *flagKeepGoing,
		KeepFlaky:        *flagKeepFlaky,
		PruneOnly:        *flagPruneOnly,
		Schedule:         *flagSchedule,
		NoCmp:            *flagNoCmp,
		NoLeaks:          *flagNoLeaks,
		Plateau:          *flagPlateau,
		SyncDir:          *flagSync,
		RaceTwin:         *flagRaceTwin,
	}
	if *flagLeaveOut != "" {
		opts.LeaveOut = strings.Split(*flagLeaveOut, ipc.LeaveOutSep)
	}
	for _, s := range seeds {
		opts.Seeds = append(opts.Seeds, engine.Seed{Path: s.Path, Data: s.Data, Values: s.Values})
	}
	if err := d.setupIO(&opts); err != nil {
		return err
	}
	return engine.Coordinate(context.Background(), opts)
}

func (d *deps) setupIO(opts *engine.Options) error {
	if fd := eventsFD(); fd >= 0 {
		f := ipc.Inherited(uintptr(fd), "fuzzbox-events")
		if f == nil {
			return fmt.Errorf("fuzzbox: -fuzzbox.events_fd=%d is not an open file", *flagEventsFD)
		}
		opts.Events = f
	}
	opts.DictFile = *flagDict
	return nil
}

// RunFuzzWorker implements testDeps: it serves the coordinator. A worker
// that cannot go on (a protocol error, a broken pipe) exits with
// ipc.WorkerExitCode, which the coordinator reports as fuzzbox's internal
// error rather than as the input's failure: returning the error would make
// the testing package fail the test, and its exit code would look like the
// input's. This is the worker process's main; nothing else runs after it.
func (d *deps) RunFuzzWorker(fn func(corpusEntry) error) error {
	err := engine.RunWorker(context.Background(), func(vals []any) error {
		return fn(corpusEntry{Values: vals})
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s (a fuzzbox bug): %v\n", ipc.WorkerErrorPrefix, err)
		os.Exit(ipc.WorkerExitCode)
	}
	return nil
}
