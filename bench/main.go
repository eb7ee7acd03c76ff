// Command bench compares fuzzbox's engine (fuzzbox fuzz) with go test -fuzz on
// the planted-bug targets in bench/targets, a separate module. It runs every
// target with every engine several times, one run at a time, with the same
// -fuzztime and -parallel, and prints one markdown table: how often each
// engine found the bug, the median time to failure, execs/s, the failure
// kind each engine reported, and the fuzzbox/native ratios.
//
// Run it from the repository root:
//
//	go run ./bench -runs=3 -fuzztime=60s -parallel=2
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
	targets      []string      // target names; empty means all
	runs         int           // runs per target and engine
	fuzztime     time.Duration // budget of one run
	parallel     int           // workers per run
	engines      []string      // "fuzzbox", "native"
	fuzzbox      string        // fuzzbox binary; "" means build ./cmd/fuzzbox
	fuzzboxArgs  []string      // extra arguments for fuzzbox fuzz
	minimizetime string        // -fuzzminimizetime of both engines
	out          string        // JSON results file
	libfuzzer    bool          // compare fuzzbox with libFuzzer on fuzzbox's and go-118-fuzz-build's binaries (libfuzzer.go)
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
	if err := bench(ctx, cfg, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	return 0
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	targets := fs.String("targets", "", "comma-separated targets to run (default all in bench/targets)")
	runs := fs.Int("runs", 3, "runs per target and engine")
	fuzztime := fs.Duration("fuzztime", 60*time.Second, "fuzzing budget of one run")
	parallel := fs.Int("parallel", 2, "fuzzing workers per run, for both engines")
	engines := fs.String("engines", "fuzzbox,native", "comma-separated engines: fuzzbox, native")
	fuzzbox := fs.String("fuzzbox", "", "fuzzbox binary (default: build ./cmd/fuzzbox into a temporary directory)")
	fuzzboxArgs := fs.String("fuzzboxargs", "", "extra space-separated arguments for fuzzbox fuzz")
	minimize := fs.String("minimizetime", "10s", "-fuzzminimizetime for both engines (time to failure is measured before minimizing)")
	out := fs.String("o", filepath.Join("bench", "results", "results.json"), "write every run as JSON to this file")
	libfuzzer := fs.Bool("libfuzzer", false, "compare fuzzbox, libFuzzer on fuzzbox build -libfuzzer's binary and libFuzzer on go-118-fuzz-build's (one process each; -engines and -parallel do not apply)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg := config{targets: splitList(*targets), runs: *runs, fuzztime: *fuzztime, parallel: *parallel,
		engines: splitList(*engines), fuzzbox: *fuzzbox, fuzzboxArgs: strings.Fields(*fuzzboxArgs),
		minimizetime: *minimize, out: *out, libfuzzer: *libfuzzer}
	if cfg.runs < 1 || cfg.parallel < 1 || cfg.fuzztime <= 0 {
		return config{}, fmt.Errorf("-runs, -parallel and -fuzztime must be positive")
	}
	for _, e := range cfg.engines {
		if e != engineFuzzbox && e != engineNative {
			return config{}, fmt.Errorf("unknown engine %q (want fuzzbox or native)", e)
		}
	}
	return cfg, nil
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
	targets, err := findTargets(targetsDir, cfg.targets)
	if err != nil {
		return err
	}
	logDir := strings.TrimSuffix(cfg.out, filepath.Ext(cfg.out)) + "-logs"
	if err := os.MkdirAll(logDir, 0o777); err != nil {
		return fmt.Errorf("creating log directory: %w", err)
	}
	if (cfg.libfuzzer || contains(cfg.engines, engineFuzzbox)) && cfg.fuzzbox == "" {
		bin, cleanup, err := buildFuzzbox(ctx)
		if err != nil {
			return err
		}
		defer cleanup()
		cfg.fuzzbox = bin
	}
	if cfg.libfuzzer {
		return benchLibFuzzer(ctx, cfg, targets, logDir, stdout, stderr)
	}
	var results []runResult
	for _, t := range targets {
		for i := 1; i <= cfg.runs; i++ {
			for _, e := range cfg.engines {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				r := runTarget(ctx, cfg, t, e, i, logDir)
				fmt.Fprintf(stderr, "bench: %s\n", r.summary())
				results = append(results, r)
				if err := writeResults(cfg.out, cfg, results); err != nil {
					return err
				}
			}
		}
	}
	printTable(stdout, cfg, targets, results)
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
