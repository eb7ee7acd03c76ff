package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/fuzzbox/fuzzbox/engine"
)

// testArgs returns the test binary's arguments for one run of t with the
// given -fuzztime value ("" for none).
func (r *fuzzRun) testArgs(t fuzzTarget, fuzztime string) ([]string, error) {
	f := r.flags
	cache := f.cachedir
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no -cachedir and no user cache dir: %w", err)
		}
		cache = filepath.Join(dir, "fuzzbox", "fuzz", t.pkg.ImportPath)
	}
	cache, _ = filepath.Abs(cache)
	args := []string{
		"-test.fuzz=^" + t.name + "$", "-test.fuzzcachedir=" + cache, "-test.timeout=0",
		"-test.fuzzminimizetime=" + f.minimizetime,
		"-fuzzbox.timeout=" + f.timeout.String(), "-fuzzbox.rss_limit_mb=" + strconv.Itoa(f.rssLimitMB),
		"-fuzzbox.events_fd=3",
	}
	if fuzztime != "" {
		args = append(args, "-test.fuzztime="+fuzztime)
	}
	if f.parallel > 0 {
		args = append(args, "-test.parallel="+strconv.Itoa(f.parallel))
	}
	switch {
	case r.pruneOnly:
		args = append(args, "-test.run=^$", "-fuzzbox.prune_only")
	case f.run != "":
		args = append(args, "-test.run="+f.run)
	case r.multi:
		// Tests run once per turn otherwise, and a reproducer found for one
		// target would fail every later turn of the package's other targets.
		args = append(args, "-test.run=^$")
	}
	if f.verbose {
		args = append(args, "-test.v")
	}
	if f.keepgoing {
		args = append(args, "-fuzzbox.keepgoing")
	}
	if t.dict != "" {
		args = append(args, "-fuzzbox.dict="+t.dict)
	}
	return args, nil
}

// runTarget runs the fuzzing binary for one turn of res's target, in the
// package directory, and records the outcome in res.
func (r *fuzzRun) runTarget(res *targetResult, fuzztime string) {
	args, err := r.testArgs(res.target, fuzztime)
	if err != nil {
		res.err = oneLine(err)
		return
	}
	cmd := exec.Command(res.target.pkg.Binary, args...)
	cmd.Dir = res.target.pkg.PkgDir
	cmd.Stderr = r.stderr
	evR, evW, err := os.Pipe()
	if err != nil {
		res.err = oneLine(err)
		return
	}
	cmd.ExtraFiles = []*os.File{evW} // fd 3: -fuzzbox.events_fd=3
	outR, outW := io.Pipe()
	cmd.Stdout = outW
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	err = cmd.Start()
	evW.Close() // the child has its copy
	if err != nil {
		evR.Close()
		res.err = oneLine(err)
		return
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); r.readEvents(evR, res) }()
	go func() { defer wg.Done(); r.copyOutput(outR, res.target) }()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	err = r.waitChild(cmd, done, sigs)
	outW.Close()
	wg.Wait()
	if c := childExit(err); c > res.exit {
		res.exit = c
	}
}

// waitChild waits for the fuzzing binary. The terminal delivers Ctrl-C to
// the whole process group, so the child is already stopping; it gets 5 s
// to write what it found before it is killed.
func (r *fuzzRun) waitChild(cmd *exec.Cmd, done <-chan error, sigs <-chan os.Signal) error {
	select {
	case err := <-done:
		return err
	case sig := <-sigs:
		r.interrupted.Store(true)
		cmd.Process.Signal(sig) // in case the signal came from kill, not a terminal
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			return <-done
		}
	}
}

// childExit maps the test binary's exit to fuzzbox's: any failure of the
// binary (a failure found, failing or panicking tests: exit 1 or 2, as go
// test reports them all as FAIL) is 1; a binary that did not exit normally
// (killed) is 2.
func childExit(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee) && ee.ExitCode() > 0:
		return exitFinding
	}
	return exitUsage
}

// readEvents consumes the engine's event stream: it records results, and
// prints each event as JSON (with elapsed_ms since fuzzbox started and the
// package) or as a status line.
func (r *fuzzRun) readEvents(rd io.ReadCloser, res *targetResult) {
	defer rd.Close()
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e engine.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			continue
		}
		switch e.Type {
		case "failure":
			if !e.Duplicate {
				res.failures = append(res.failures, e)
			}
		case "done":
			res.execs += e.Execs
			if e.Error != "" {
				res.err = e.Error
			}
		}
		e.Package = res.target.pkg.ImportPath
		if r.flags.json {
			r.event(e)
			continue
		}
		if line := engine.FormatEvent(e); line != "" {
			if r.multi {
				line = "[" + res.target.name + "] " + line
			}
			r.out.writeLine([]byte(line))
		}
	}
}

// copyOutput forwards the test binary's standard output: as is, or as
// output events in JSON mode.
func (r *fuzzRun) copyOutput(rd io.Reader, t fuzzTarget) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if r.flags.json {
			r.event(engine.Event{Type: "output", Target: t.name, Package: t.pkg.ImportPath, Output: sc.Text() + "\n"})
			continue
		}
		r.out.writeLine(sc.Bytes())
	}
	io.Copy(io.Discard, rd)
}

// event writes one event in JSON mode (no-op otherwise), its elapsed_ms
// counted from the start of fuzzbox fuzz.
func (r *fuzzRun) event(e engine.Event) {
	if !r.flags.json {
		return
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	e.Elapsed = e.Time.Sub(r.start).Milliseconds()
	b, _ := json.Marshal(e)
	r.out.writeLine(b)
}

// lockedWriter serializes whole lines from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) writeLine(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Write(append(append([]byte(nil), b...), '\n'))
}
