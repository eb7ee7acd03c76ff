// Command bench compares fuzzbox's engine (fuzzbox fuzz) with go test -fuzz
// and libFuzzer on a set of targets: the planted bugs in bench/targets, the
// historical bugs of public modules in bench/realworld or the planted bugs
// behind typed arguments in bench/typed (-set), each a separate module. It
// runs every target with every engine several times, one run at a time, with
// the same -fuzztime and -parallel, and prints one markdown table:
// how often each engine found the bug, the median time and executions to it,
// execs/s, the failure kinds, other failures (a real-world target's failure
// that is not its known bug), and the ratios of fuzzbox to every other engine.
//
// Run it from the repository root:
//
//	go run ./bench -runs=3 -fuzztime=60s -parallel=2
//	go run ./bench -set=realworld -engines=all -runs=2 -fuzztime=30s
//	go run ./bench -set=compat -compattime=20s   # real modules' fuzz tests: fuzzbox must agree with go test
//	go run ./bench -set=compat -targets=go-toml,encoding/csv -resume
//	go run ./bench -set=compat -engines=libfuzzer -targets=go-toml   # real modules' fuzz tests through fuzzbox build -libfuzzer
//	go run ./bench -set=realworld -engines=fuzzbox-sync -against=/tmp/fuzzbox-old -runs=16   # two builds, alternating
//
// Every run's numbers go to -o as JSON and every run's output to a log file
// next to it. bench/README.md says how the numbers are computed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
)

// config is the parsed command line.
type config struct {
	set          string        // target set: a key of targetSets
	targets      []string      // target names; empty means all
	runs         int           // runs per target and engine
	fuzztime     time.Duration // budget of one run
	parallel     int           // workers per run
	engines      []string      // engineFuzzbox, engineNative, engineLibFuzzer, engineGo118
	fuzzbox      string        // fuzzbox binary; "" means build ./cmd/fuzzbox
	fuzzboxArgs  []string      // extra arguments for fuzzbox fuzz
	minimizetime string        // -fuzzminimizetime of both engines
	out          string        // JSON results file
	rescore      string        // results file to print again instead of running; "" runs
	compattime   time.Duration // -set=compat: fuzzing time of each engine on each fuzz test
	resume       bool          // -set=compat: keep the rows of -o's file and run only the fuzz tests it lacks
	compatVendor bool          // -set=compat: vendor each module copy and run every command offline from it
	compatList   string        // -set=compat: the list of packages and fuzz tests
	// go118ValueProfile runs go-118-fuzz-build's binaries with value
	// profiling (OSS-Fuzz runs them without).
	go118ValueProfile bool
	// noSeeds runs the targets from a copy of their module whose fuzz
	// tests add no seeds (f.Add made a no-op), as a fuzz test without
	// seeds starts.
	noSeeds bool
	// netns runs each instance of fuzzbox-sync and fuzzbox-split in a
	// network namespace of its own (instanceCommand).
	netns bool
	// against is a second fuzzbox binary: every engine that runs the
	// fuzzbox binary runs with it too, and the table compares the two
	// builds (against.go).
	against string
}

// engineAliases are the -engines values that stand for several engines.
var engineAliases = map[string][]string{
	"all": {engineFuzzbox, engineNative, engineGo118}, // fuzzbox, native and libFuzzer as OSS-Fuzz builds it
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch {
	case cfg.rescore != "":
		err = rescoreResults(cfg.rescore, stdout)
	case cfg.set == "compat" && cfg.libFuzzerOnly():
		err = runCompatLibFuzzer(ctx, cfg, stdout, stderr)
	case cfg.set == "compat":
		err = runCompat(ctx, cfg, stdout, stderr)
	default:
		err = bench(ctx, cfg, stdout, stderr)
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	return 0
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	set := fs.String("set", "planted", "target set: planted (bench/targets), realworld (bench/realworld), typed (bench/typed: typed arguments) or compat (bench/compat.txt: real modules' fuzz tests run as go test runs them)")
	compattime := fs.Duration("compattime", 20*time.Second, "-set=compat: fuzzing time of fuzzbox and of go test -fuzz on each fuzz test")
	targets := fs.String("targets", "", "comma-separated targets to run (default all of the set)")
	runs := fs.Int("runs", 3, "runs per target and engine")
	fuzztime := fs.Duration("fuzztime", 60*time.Second, "fuzzing budget of one run")
	parallel := fs.Int("parallel", 2, "fuzzing workers per run of fuzzbox and native (1 when a libFuzzer engine runs)")
	engines := fs.String("engines", "fuzzbox,native", "comma-separated engines: fuzzbox, fuzzbox-bytes (fuzzbox on a typed target's FuzzXBytes twin), fuzzbox-sync and fuzzbox-split (-parallel instances of one worker each, syncing through a directory or not), native, libfuzzer (on fuzzbox build -libfuzzer's binary; alone with -set=compat, the compat set through libFuzzer), go118 (on go-118-fuzz-build's, as OSS-Fuzz builds it); all = fuzzbox,native,go118")
	fuzzbox := fs.String("fuzzbox", "", "fuzzbox binary (default: build ./cmd/fuzzbox into a temporary directory)")
	fuzzboxArgs := fs.String("fuzzboxargs", "", "extra space-separated arguments for fuzzbox fuzz")
	minimize := fs.String("minimizetime", "10s", "-fuzzminimizetime for both engines (time to failure is measured before minimizing)")
	out := fs.String("o", filepath.Join("bench", "results", "results.json"), "write every run as JSON to this file")
	libfuzzer := fs.Bool("libfuzzer", false, "short for -engines=fuzzbox,libfuzzer,go118")
	go118VP := fs.Bool("go118valueprofile", false, "run go-118-fuzz-build's binaries with -use_value_profile=1 (default: as OSS-Fuzz runs them, without; the fuzzbox build runs with the flags of its .options)")
	resume := fs.Bool("resume", false, "-set=compat: keep the rows already in -o's file and run only the fuzz tests it lacks")
	compatVendor := fs.Bool("compatvendor", false, "-set=compat: vendor each module copy (go mod vendor) and run every command offline, from its vendor directory (GOPROXY=off, an empty module cache), as a vendoring user does")
	list := fs.String("compatlist", compatList, "-set=compat: the list of modules, packages and fuzz tests to run (bench/compat-go127.txt: modules that need a newer Go, run with GOTOOLCHAIN=go1.27.4)")
	noSeeds := fs.Bool("noseeds", false, "-set=planted or realworld: run the targets without the seeds their fuzz tests add (f.Add made a no-op, its literals emptied, in a copy of the module), as a fuzz test that adds none starts; libFuzzer on go-118-fuzz-build's binary drops them anyway")
	netns := fs.Bool("netns", false, "fuzzbox-sync and fuzzbox-split: run each instance in a network namespace of its own (unshare --net), as separate machines share no network")
	against := fs.String("against", "", "a second fuzzbox binary (an earlier or a scratch build): every engine that runs fuzzbox also runs with it, which build goes first alternating run by run, and a table compares the two builds' times to the bug (medians' ratio, P(sooner), permutation test, geometric mean with its bootstrap interval)")
	rescore := fs.String("rescore", "", "run nothing: print the table of this results file (-o of an earlier run) again, matching every failure against the targets' current signatures")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg := config{set: *set, targets: splitList(*targets), runs: *runs, fuzztime: *fuzztime, parallel: *parallel,
		fuzzbox: *fuzzbox, fuzzboxArgs: strings.Fields(*fuzzboxArgs), minimizetime: *minimize, out: *out,
		rescore: *rescore, compattime: *compattime, resume: *resume, compatVendor: *compatVendor, compatList: *list, go118ValueProfile: *go118VP,
		noSeeds: *noSeeds, netns: *netns, against: *against}
	if cfg.runs < 1 || cfg.parallel < 1 || cfg.fuzztime <= 0 {
		return config{}, fmt.Errorf("-runs, -parallel and -fuzztime must be positive")
	}
	if _, ok := targetSets[cfg.set]; !ok && cfg.set != "compat" {
		return config{}, fmt.Errorf("unknown target set %q (want planted, realworld, typed or compat)", cfg.set)
	}
	if cfg.set == "compat" && cfg.compattime <= 0 {
		return config{}, fmt.Errorf("-compattime must be positive")
	}
	if (cfg.resume || cfg.compatVendor || flagSet(fs, "compatlist")) && cfg.set != "compat" {
		return config{}, fmt.Errorf("-resume, -compatvendor and -compatlist are for -set=compat")
	}
	if cfg.noSeeds && cfg.set != "planted" && cfg.set != "realworld" {
		return config{}, fmt.Errorf("-noseeds is for -set=planted or realworld")
	}
	if cfg.set == "compat" && !flagSet(fs, "o") {
		cfg.out = filepath.Join("bench", "results", "compat.json")
	}
	if *libfuzzer {
		*engines = strings.Join([]string{engineFuzzbox, engineLibFuzzer, engineGo118}, ",")
	}
	var err error
	if cfg.engines, err = parseEngines(*engines); err != nil {
		return config{}, err
	}
	if cfg.hasLibFuzzer() {
		cfg.parallel = 1
	}
	if cfg.netns {
		if !contains(cfg.engines, engineFuzzboxSync) && !contains(cfg.engines, engineFuzzboxSplit) {
			return config{}, fmt.Errorf("-netns is for the engines fuzzbox-sync and fuzzbox-split")
		}
		if err := checkNetns(context.Background()); err != nil {
			return config{}, err
		}
	}
	if err := cfg.checkAgainst(); err != nil {
		return config{}, err
	}
	if cfg.set == "compat" && cfg.libFuzzerOnly() && !flagSet(fs, "o") {
		cfg.out = filepath.Join("bench", "results", "compat-libfuzzer.json")
	}
	return cfg, nil
}

// flagSet reports whether the command line set the flag.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// parseEngines expands aliases and checks the engine names.
func parseEngines(list string) ([]string, error) {
	var out []string
	for _, e := range splitList(list) {
		names, ok := engineAliases[e]
		if !ok {
			names = []string{e}
		}
		for _, n := range names {
			switch n {
			case engineFuzzbox, engineFuzzboxBytes, engineFuzzboxSync, engineFuzzboxSplit, engineFuzzboxTwin, engineFuzzboxNoTwin, engineNative, engineNativeRace, engineLibFuzzer, engineGo118:
			default:
				return nil, fmt.Errorf("unknown engine %q (want fuzzbox, fuzzbox-bytes, fuzzbox-sync, fuzzbox-split, fuzzbox-twin, fuzzbox-notwin, native, native-race, libfuzzer, go118 or all)", n)
			}
			if !contains(out, n) {
				out = append(out, n)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no engines")
	}
	return out, nil
}

// hasLibFuzzer reports whether a libFuzzer engine runs: then every engine
// runs one process.
func (cfg config) hasLibFuzzer() bool {
	return contains(cfg.engines, engineLibFuzzer) || contains(cfg.engines, engineGo118)
}

// libFuzzerOnly reports whether libFuzzer on fuzzbox's build is the only
// engine: -set=compat then runs its libFuzzer mode (compatlf.go).
func (cfg config) libFuzzerOnly() bool {
	return len(cfg.engines) == 1 && cfg.engines[0] == engineLibFuzzer
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// bench runs every (target, engine, run) in turn and prints the table.
func bench(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	root := targetSets[cfg.set]
	if cfg.noSeeds {
		copyRoot, calls, remove, err := withoutSeeds(root)
		if err != nil {
			return err
		}
		defer remove()
		fmt.Fprintf(stderr, "bench: -noseeds: %d f.Add calls made no-ops in a copy of %s\n", calls, root)
		root = copyRoot
	}
	targets, err := findTargets(root, cfg.targets)
	if err != nil {
		return err
	}
	logDir := strings.TrimSuffix(cfg.out, filepath.Ext(cfg.out)) + "-logs"
	if err := os.MkdirAll(logDir, 0o777); err != nil {
		return fmt.Errorf("creating log directory: %w", err)
	}
	if (contains(cfg.engines, engineFuzzbox) || contains(cfg.engines, engineLibFuzzer)) && cfg.fuzzbox == "" {
		bin, cleanup, err := buildFuzzbox(ctx)
		if err != nil {
			return err
		}
		defer cleanup()
		cfg.fuzzbox = bin
	}
	work, err := os.MkdirTemp("", "fuzzbox-bench-libfuzzer-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	var g118 string
	if contains(cfg.engines, engineGo118) {
		if g118, err = installGo118(ctx, work); err != nil {
			return err
		}
	}
	var results []runResult
	for _, t := range targets {
		var bins lfBinaries
		if cfg.hasLibFuzzer() {
			bins = buildLibFuzzerTargets(ctx, cfg, t, cfg.engines, g118, filepath.Join(work, t.name))
			if bins.note != "" {
				fmt.Fprintf(stderr, "bench: %s: %s\n", t.name, bins.note)
			}
		}
		for i := 1; i <= cfg.runs; i++ {
			for _, e := range cfg.engines {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				for _, side := range cfg.runOrder(e, i) {
					r := runSide(ctx, cfg, t, e, side, i, logDir, bins)
					fmt.Fprintf(stderr, "bench: %s\n", r.summary())
					results = append(results, r)
					if err := writeResults(cfg.out, cfg, results); err != nil {
						return err
					}
				}
			}
		}
	}
	printTable(stdout, cfg, targets, results)
	printComparison(stdout, cfg, targets, results)
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// buildFuzzbox builds ./cmd/fuzzbox into a temporary directory.
func buildFuzzbox(ctx context.Context) (bin string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "fuzzbox-bench-")
	if err != nil {
		return "", nil, fmt.Errorf("building fuzzbox: %w", err)
	}
	bin = filepath.Join(dir, "fuzzbox")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/fuzzbox")
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("building fuzzbox: %v\n%s", err, out)
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}
