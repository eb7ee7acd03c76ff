package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Engines that run -parallel fuzzbox instances of one worker each at once,
// each with its own cache directories (as separate machines would have:
// instanceEnv), to compare with one instance of -parallel workers (engine
// fuzzbox): synced through a shared -sync directory, or not. A run's time to
// failure is the first instance's; the others are then stopped.
const (
	engineFuzzboxSync  = "fuzzbox-sync"
	engineFuzzboxSplit = "fuzzbox-split"
)

// runInstances runs the instances of engine (engineFuzzboxSync or
// engineFuzzboxSplit) on t, in t's directory (the caller restores it).
func runInstances(ctx context.Context, cfg config, t target, engine string, run int, logDir string) runResult {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var syncArgs []string
	if engine == engineFuzzboxSync {
		dir, err := os.MkdirTemp("", "fuzzbox-bench-sync-")
		if err != nil {
			return runResult{Target: t.name, Engine: engine, Run: run, Note: err.Error()}
		}
		defer os.RemoveAll(dir)
		syncArgs = []string{"-sync=" + dir}
	}
	n := cfg.parallel
	results := make([]runResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runInstance(ctx, cfg, t, i, syncArgs, filepath.Join(logDir, fmt.Sprintf("%s-%s-%d-%d.log", t.name, engine, run, i)))
			if results[i].Failed {
				cancel() // the run's failure is found: the others stop
			}
		}()
	}
	wg.Wait()
	return combineInstances(t, engine, run, results)
}

// runInstance runs one instance of one worker with a fresh cache directory.
func runInstance(ctx context.Context, cfg config, t target, i int, syncArgs []string, log string) runResult {
	r := runResult{Log: log}
	cache, err := os.MkdirTemp("", "fuzzbox-bench-cache-")
	if err != nil {
		r.Note = err.Error()
		return r
	}
	defer os.RemoveAll(cache)
	c := cfg
	c.parallel = 1
	c.fuzzboxArgs = append(append([]string(nil), cfg.fuzzboxArgs...), syncArgs...)
	env, err := instanceEnv(i)
	if err != nil {
		r.Note = err.Error()
		return r
	}
	p := newFuzzboxParser(t.isKnownBug)
	timeout := 2*cfg.fuzztime + 3*time.Minute
	argv := instanceCommand(cfg, env, fuzzboxArgs(c, t, cache))
	r.ExitCode, r.WallS, r.PeakMemGB, err = execute(ctx, t.dir, argv, false, p, log, timeout)
	if err != nil && ctx.Err() == nil {
		r.Note = fmt.Sprintf("instance %d: %v", i, err)
	}
	p.result(&r)
	return r
}

// instanceCommand returns the command line of an instance: args with env
// set, in a network namespace of its own with -netns (unshare --net; as
// another user than root, in a user namespace too, where the system allows
// it), so that the instances can reach each other through the sync
// directory only, as on separate machines.
func instanceCommand(cfg config, env, args []string) []string {
	var argv []string
	if cfg.netns {
		argv = []string{"unshare", "--net"}
		if os.Geteuid() != 0 {
			argv = append(argv, "--map-root-user")
		}
		argv = append(argv, "--")
	}
	return append(append(append(argv, "env"), env...), args...)
}

// checkNetns reports why -netns cannot work here, or nil: it runs true in
// a network namespace of its own, as instanceCommand would.
func checkNetns(ctx context.Context) error {
	argv := instanceCommand(config{netns: true}, nil, []string{"true"})
	if out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput(); err != nil {
		return fmt.Errorf("-netns: %s: %v: %s", strings.Join(argv, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

// instanceEnv returns the environment of instance i: its own user cache
// directory (XDG_CACHE_HOME), where fuzzbox keeps its binary cache, kept
// from one run to the next as a machine's is, with go's build cache where
// it is (GOCACHE) so that only the first build of each instance costs more.
// With one user cache, the instances took turns at the binary cache's lock:
// the second began fuzzing about 0.9 s after the first (iniload, eight runs
// of 2026-12-06), while separate machines start together.
func instanceEnv(i int) ([]string, error) {
	cache := goCache()
	if cache == "" {
		return nil, fmt.Errorf("go env GOCACHE: no build cache")
	}
	dir := filepath.Join(os.TempDir(), "fuzzbox-bench-instances", strconv.Itoa(i))
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	return []string{"XDG_CACHE_HOME=" + dir, "GOCACHE=" + cache}, nil
}

// goCache is go's build cache directory, asked once per bench run.
var goCache = sync.OnceValue(func() string { return goEnv("GOCACHE") })

// combineInstances makes one run of the instances' results: the failure
// found first (the known bug preferred), the executions of all, and the
// execution rate of all together.
func combineInstances(t target, engine string, run int, rs []runResult) runResult {
	out := runResult{Target: t.name, Engine: engine, Run: run}
	var notes, logs []string
	best := -1
	for i, r := range rs {
		out.Execs += r.Execs
		out.ExecsPerSec += r.ExecsPerSec
		out.FuzzS = max(out.FuzzS, r.FuzzS)
		out.WallS = max(out.WallS, r.WallS)
		out.PeakMemGB = max(out.PeakMemGB, r.PeakMemGB)
		out.Early += r.Early / float64(len(rs))
		logs = append(logs, r.Log)
		if r.Note != "" {
			notes = append(notes, r.Note)
		}
		if r.Failed && (best < 0 || r.TTF < rs[best].TTF) {
			best = i
		}
	}
	if best >= 0 {
		b := rs[best]
		out.Failed, out.Kind, out.Message, out.FailText, out.Reproducer = true, b.Kind, b.Message, b.FailText, b.Reproducer
		out.TTF, out.ExitCode, out.Earlier = b.TTF, b.ExitCode, b.Earlier
		// Every instance ran until then, at about its own rate.
		for _, r := range rs {
			out.ExecsToFailure += int64(r.ExecsPerSec * b.TTF)
		}
		out.ExecsToFailure += b.ExecsToFailure - int64(b.ExecsPerSec*b.TTF)
	}
	out.Log = strings.Join(logs, " ")
	out.Note = strings.Join(notes, "; ")
	return out
}
