package ipc

import "time"

// The driver ⇄ fuzzing binary contract. A fuzzing binary is a test binary
// built with fuzzbox's test main (engine/fuzzmain); besides the testing
// package's -test.* flags it takes the flags below, which engine/fuzzmain
// registers under exactly these names and the driver (package driver) sets.
// Both use these constants, so the names are written once. The driver
// passes them in the environment (FlagsEnv), not on the command line, which
// then holds only what go test would pass: a package whose init calls
// flag.Parse (after testing.Init), as some do, failed with "flag provided
// but not defined: -fuzzbox.timeout" in fuzzbox's binary and passed under
// go test. On the command line they still work, for a user running the
// binary by hand.
const (
	FlagTimeout    = "fuzzbox.timeout"      // duration: per-input hang limit
	FlagRSSLimitMB = "fuzzbox.rss_limit_mb" // int: per-worker resident memory limit in MiB; 0 = no limit, at every step
	FlagEventsFD   = "fuzzbox.events_fd"    // int: inherited fd to write the JSON event stream to; -1 = none
	FlagKeepGoing  = "fuzzbox.keepgoing"    // bool: keep fuzzing after a failure
	FlagKeepFlaky  = "fuzzbox.keepflaky"    // bool: write a reproducer for an input that did not fail again
	FlagDict       = "fuzzbox.dict"         // path: dictionary file (AFL/libFuzzer format)
	FlagPruneOnly  = "fuzzbox.prune_only"   // bool: run the corpus, prune the cache, do not fuzz
	FlagSchedule   = "fuzzbox.schedule"     // ScheduleRoundRobin (default) or SchedulePower
	FlagNoCmp      = "fuzzbox.nocmp"        // bool: no comparison tracing (ablation)
	FlagNoLeaks    = "fuzzbox.noleaks"      // bool: no goroutine-leak detection (failure kind leak)
	FlagPlateau    = "fuzzbox.plateau"      // duration: stop fuzzing after this long without new coverage; 0 = never
	FlagSync       = "fuzzbox.sync"         // path: directory shared with other instances (corpus sync); "" = none
	FlagRaceTwin   = "fuzzbox.racetwin"     // path: the same test built with -race, replaying new inputs in the background; "" = none
	FlagLeaveOut   = "fuzzbox.leave_out"    // names of corpus inputs not to run (seed#0, a corpus file's name), separated by LeaveOutSep; "" = none
)

// FlagsEnv is the environment variable in which the driver passes the
// flags above to the fuzzing binary: one "-name=value" per line. The test
// main (engine/fuzzmain.MainStart) sets them before the tests run and
// removes the variable, so that no process a test starts inherits it (a
// test re-running its own binary as a helper would otherwise write to an
// events descriptor it does not have).
const FlagsEnv = "FUZZBOX_TEST_FLAGS"

// LeaveOutSep separates the names of FlagLeaveOut: no file name has it,
// nor does go test's name of an f.Add seed (seed#N).
const LeaveOutSep = "/"

// Corpus schedules, the values of FlagSchedule (docs/engine.md); the engine's
// Options.Schedule takes the same names.
const (
	ScheduleRoundRobin = "roundrobin" // each entry in turn, as go test -fuzz does
	SchedulePower      = "power"      // weighted by the coverage an entry's calls found, its size and speed
)

// EventsFD is the file descriptor on which the driver passes the events pipe
// to the fuzzing binary (the first of exec.Cmd.ExtraFiles).
const EventsFD = 3

// Defaults of the fuzzing binary's flags, used by engine/fuzzmain and by the
// driver's zero-valued options.
const (
	DefaultTimeout = 10 * time.Second
	// DefaultRSSLimitMB is the -rss_limit_mb every front end sets unless told
	// otherwise (libFuzzer's); a zero limit is no limit.
	DefaultRSSLimitMB = 2048
	// DefaultMinimizeTime is -test.fuzzminimizetime's default, as go test's.
	DefaultMinimizeTime = "60s"
)
