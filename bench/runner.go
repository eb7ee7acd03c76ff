package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

const (
	engineFuzzbox = "fuzzbox"
	engineNative  = "native"
	// engineFuzzboxBytes is fuzzbox on a target's byte-consuming twin
	// (FuzzXBytes) instead of FuzzX: with fuzzbox on FuzzX in the same
	// run, the table's execs/s ratio is what typed arguments cost the
	// engine against a hand-written []byte harness of the same code.
	engineFuzzboxBytes = "fuzzbox-bytes"
	// engineNativeRace is go test -fuzz with -race: a data race fails the
	// input, every execution under the race detector.
	engineNativeRace = "native-race"
	// engineFuzzboxTwin and engineFuzzboxNoTwin are fuzzbox with the race
	// twin on and off (-racetwin), whatever its default: in one run, the
	// table's execs/s ratio is what the twin costs.
	engineFuzzboxTwin   = "fuzzbox-twin"
	engineFuzzboxNoTwin = "fuzzbox-notwin"
)

// A runResult is one run of one engine on one target, as written to -o.
type runResult struct {
	Target     string  `json:"target"`
	Engine     string  `json:"engine"`
	Run        int     `json:"run"`
	Found      bool    `json:"found"`                  // the target's known bug (target.isKnownBug); any failure for planted targets
	Failed     bool    `json:"failed"`                 // the engine reported a failure, the known bug or another
	Kind       string  `json:"kind,omitempty"`         // engine's failure kind
	Message    string  `json:"message,omitempty"`      // engine's failure text, first line
	FailText   string  `json:"failure_text,omitempty"` // engine's failure report (stack), at most maxFailText bytes
	Reproducer string  `json:"reproducer,omitempty"`
	TTF        float64 `json:"ttf_s,omitempty"` // seconds from fuzzing start to failure; 0 if no failure
	// ExecsToFailure is the number of executions before the failure: exact
	// for libFuzzer (its final stats), estimated for fuzzbox and native
	// from their last stats line before the failure and that line's rate.
	ExecsToFailure int64   `json:"execs_to_failure,omitempty"`
	WallS          float64 `json:"wall_s"` // seconds the whole command ran, build included
	FuzzS          float64 `json:"fuzz_s"` // seconds of fuzzing the execs/s is computed over
	Execs          int64   `json:"execs"`
	ExecsPerSec    float64 `json:"execs_per_sec"`
	// EngineExecs is the engine's own count of executions where Execs counts
	// something else: go-118's fuzz function calls (go118CallsFile).
	EngineExecs int64   `json:"engine_execs,omitempty"`
	PeakMemGB   float64 `json:"peak_mem_used_gb,omitempty"` // machine-wide, from /proc/meminfo
	// Early is how many inputs joined the corpus in the first earlyMS of
	// fuzzing (fuzzbox: coverage events, imported ones included); for N
	// instances, the mean of theirs.
	Early float64 `json:"corpus_early,omitempty"`
	// Earlier are the failures reported before the known bug, as "kind at
	// Ns: first line" (fuzzbox with -keepgoing, which goes on past them).
	Earlier  []string `json:"earlier_failures,omitempty"`
	ExitCode int      `json:"exit_code"`
	Note     string   `json:"note,omitempty"` // timeouts, parse problems
	Log      string   `json:"log"`
}

func (r runResult) summary() string {
	s := fmt.Sprintf("%-9s %-9s run %d: found=%v", r.Target, r.Engine, r.Run, r.Found)
	if r.Failed {
		s += fmt.Sprintf(" kind=%q ttf=%.1fs execs=%d", r.Kind, r.TTF, r.ExecsToFailure)
	}
	if r.Failed && !r.Found {
		s += fmt.Sprintf(" other failure %q", r.Message)
	}
	if len(r.Earlier) > 0 {
		s += fmt.Sprintf(" after %d other failure(s) %q", len(r.Earlier), r.Earlier)
	}
	s += fmt.Sprintf(" execs/s=%.0f wall=%.0fs peakmem=%.1fGB", r.ExecsPerSec, r.WallS, r.PeakMemGB)
	if r.EngineExecs > 0 {
		s += fmt.Sprintf(" engine_execs=%d", r.EngineExecs)
	}
	if r.Note != "" {
		s += " note=" + r.Note
	}
	return s
}

// A lineParser consumes an engine's output, one line at a time, each with
// its arrival time since the command started.
type lineParser interface {
	line(at time.Duration, s string)
	result(r *runResult)
}

// maxFailText bounds runResult.FailText.
const maxFailText = 16 << 10

// runTarget runs one engine once on t and decides whether its failure, if
// any, is t's known bug. bins are t's libFuzzer binaries (libFuzzer engines
// only).
func runTarget(ctx context.Context, cfg config, t target, engine string, run int, logDir string, bins lfBinaries) runResult {
	var r runResult
	if engine == engineFuzzboxBytes && t.bytesFuzz == "" {
		return runResult{Target: t.name, Engine: engine, Run: run, Note: "no FuzzXBytes twin: not run"}
	}
	if engine == engineLibFuzzer || engine == engineGo118 {
		r = runLibFuzzer(ctx, cfg, t, engine, run, bins, logDir)
	} else {
		r = runGoEngine(ctx, cfg, t, engine, run, logDir)
	}
	if len(r.FailText) > maxFailText {
		r.FailText = r.FailText[:maxFailText]
	}
	r.Found = r.Failed && t.isKnownBug(r.Kind, r.Message+"\n"+r.FailText)
	return r
}

// twinArgs are the fuzzbox fuzz arguments of the race twin engines.
var twinArgs = map[string][]string{engineFuzzboxTwin: {"-racetwin=true"}, engineFuzzboxNoTwin: {"-racetwin=false"}}

// runGoEngine runs fuzzbox or native once on t and restores t's directory
// afterwards.
func runGoEngine(ctx context.Context, cfg config, t target, engine string, run int, logDir string) runResult {
	r := runResult{Target: t.name, Engine: engine, Run: run,
		Log: filepath.Join(logDir, fmt.Sprintf("%s-%s-%d.log", t.name, engine, run))}
	snap, err := snapshot(t.dir)
	if err != nil {
		r.Note = err.Error()
		return r
	}
	defer func() {
		if err := snap.restore(); err != nil {
			r.Note = strings.TrimSpace(r.Note + " " + err.Error())
		}
	}()
	if engine == engineFuzzboxSync || engine == engineFuzzboxSplit {
		ir := runInstances(ctx, cfg, t, engine, run, logDir)
		ir.Note = strings.TrimSpace(r.Note + " " + ir.Note)
		return ir
	}
	cache, err := os.MkdirTemp("", "fuzzbox-bench-cache-")
	if err != nil {
		r.Note = err.Error()
		return r
	}
	defer os.RemoveAll(cache)

	var argv []string
	var p lineParser
	if engine == engineNative || engine == engineNativeRace {
		argv, p = nativeArgs(cfg, t, cache, engine == engineNativeRace), newNativeParser()
	} else {
		if engine == engineFuzzboxBytes {
			t.fuzz = t.bytesFuzz
		}
		argv, p = fuzzboxArgs(cfg, t, cache, twinArgs[engine]...), newFuzzboxParser(t.isKnownBug)
	}
	// Build, minimization and a hang report all come on top of -fuzztime.
	timeout := 2*cfg.fuzztime + 3*time.Minute
	r.ExitCode, r.WallS, r.PeakMemGB, err = execute(ctx, t.dir, argv, engine == engineNative || engine == engineNativeRace, p, r.Log, timeout)
	if err != nil {
		r.Note = err.Error()
	}
	p.result(&r)
	return r
}

// execute runs argv in dir and feeds its standard output (and, if merge, its
// standard error) to p; everything goes to logPath.
func execute(ctx context.Context, dir string, argv []string, merge bool, p lineParser, logPath string,
	timeout time.Duration) (code int, wall, peakGB float64, err error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return -1, 0, 0, fmt.Errorf("creating log: %w", err)
	}
	defer logf.Close()
	fmt.Fprintf(logf, "# cd %s && %s\n", dir, strings.Join(argv, " "))

	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	waited := setProcessGroup(cmd)
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	cmd.Stderr = logf
	if merge {
		cmd.Stderr = pw
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return -1, 0, 0, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	mem := startMemSampler()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64*1024), 16<<20)
		for sc.Scan() {
			at := time.Since(start)
			fmt.Fprintln(logf, sc.Text())
			p.line(at, sc.Text())
		}
		io.Copy(io.Discard, pr)
	}()
	waitErr := cmd.Wait()
	waited()
	pw.Close()
	wg.Wait()
	wall = time.Since(start).Seconds()
	peakGB = mem.stop()
	code = cmd.ProcessState.ExitCode()
	if ctx.Err() != nil {
		err = stopped(ctx.Err(), timeout)
	} else if waitErr != nil && !errors.As(waitErr, new(*exec.ExitError)) {
		err = waitErr
	}
	return code, wall, peakGB, err
}

// stopped says why a command whose context ended (ctxErr) was killed: its
// timeout, or the bench itself stopping (an interrupt), which a row once
// reported as "killed after 30m0s" too.
func stopped(ctxErr error, timeout time.Duration) error {
	if errors.Is(ctxErr, context.DeadlineExceeded) {
		return fmt.Errorf("killed after %s", timeout)
	}
	return errors.New("killed: the bench was stopped")
}

// writeResults writes every run so far, with the configuration, as JSON.
func writeResults(path string, cfg config, results []runResult) error {
	out := struct {
		Set      string      `json:"set"`
		Engines  []string    `json:"engines"`
		Fuzztime string      `json:"fuzztime"`
		Parallel int         `json:"parallel"`
		NoSeeds  bool        `json:"noseeds,omitempty"`
		Fuzzbox  string      `json:"fuzzbox,omitempty"` // with -against: the build's binary
		Against  string      `json:"against,omitempty"` // -against's binary; its engines end in againstSuffix
		Runs     []runResult `json:"runs"`
	}{cfg.set, cfg.tableEngines(), cfg.fuzztime.String(), cfg.parallel, cfg.noSeeds, "", cfg.against, results}
	if cfg.against != "" {
		out.Fuzzbox = cfg.fuzzbox
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o666); err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	return nil
}

// rescoreResults prints the table of the results file at path again, with
// every failure matched against the current signature of its target (the
// set and targets are looked up as the run found them).
func rescoreResults(path string, stdout io.Writer) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("rescoring: %w", err)
	}
	var in struct {
		Set      string      `json:"set"`
		Engines  []string    `json:"engines"`
		Fuzztime string      `json:"fuzztime"`
		Parallel int         `json:"parallel"`
		NoSeeds  bool        `json:"noseeds"`
		Fuzzbox  string      `json:"fuzzbox"`
		Against  string      `json:"against"`
		Runs     []runResult `json:"runs"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("rescoring %s: %w", path, err)
	}
	root, ok := targetSets[in.Set]
	if !ok {
		return fmt.Errorf("rescoring %s: unknown target set %q", path, in.Set)
	}
	cfg := config{set: in.Set, engines: in.Engines, parallel: in.Parallel, noSeeds: in.NoSeeds}
	fromAgainst := func(e string) bool { return strings.HasSuffix(e, againstSuffix) }
	if slices.ContainsFunc(in.Engines, fromAgainst) { // tableEngines adds -against's engines again
		cfg.engines = slices.DeleteFunc(slices.Clone(in.Engines), fromAgainst)
		cfg.fuzzbox, cfg.against = in.Fuzzbox, orDash(in.Against)
	}
	if cfg.fuzztime, err = time.ParseDuration(in.Fuzztime); err != nil {
		return fmt.Errorf("rescoring %s: %w", path, err)
	}
	var names []string
	for _, r := range in.Runs {
		if !contains(names, r.Target) {
			names = append(names, r.Target)
		}
		cfg.runs = max(cfg.runs, r.Run)
	}
	targets, err := findTargets(root, names)
	if err != nil {
		return err
	}
	byName := map[string]target{}
	for _, t := range targets {
		byName[t.name] = t
	}
	for i, r := range in.Runs {
		in.Runs[i].Found = r.Failed && byName[r.Target].isKnownBug(r.Kind, r.Message+"\n"+r.FailText)
	}
	printTable(stdout, cfg, targets, in.Runs)
	printComparison(stdout, cfg, targets, in.Runs)
	return nil
}
