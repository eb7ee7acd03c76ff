//go:build unix

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// A fuzzRun is one fuzzbox fuzz process and what its event stream said last.
// The reader goroutine writes last and failures under mu; sample reads them.
type fuzzRun struct {
	cmd   *exec.Cmd
	start time.Time
	done  chan struct{} // closed when the event stream ends

	mu       sync.Mutex
	last     event.Event // the last stats (or done) event
	failures int         // failure events so far
	flaky    int         // flaky events so far
	readErr  error       // the first error reading the stream
}

// startRun starts fuzzbox fuzz -json in c.pkg and a goroutine reading its
// events; the process and its children share a process group that ctx's end
// kills.
func startRun(ctx context.Context, c config) (*fuzzRun, error) {
	cmd := exec.CommandContext(ctx, c.fuzzbox, "fuzz", "-json", "-keepgoing",
		"-parallel="+strconv.Itoa(c.parallel), "-fuzztime="+c.duration.String(),
		"-cachedir="+c.cacheDir, "-run="+c.run, "-fuzz="+c.fuzz, ".")
	cmd.Dir = c.pkg
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("starting fuzzbox: %w", err)
	}
	var stream io.Reader = stdout
	if c.events != "" {
		f, err := os.Create(c.events)
		if err != nil {
			return nil, fmt.Errorf("event file: %w", err)
		}
		stream = io.TeeReader(stdout, f) // f is closed at exit
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting fuzzbox: %w", err)
	}
	r := &fuzzRun{cmd: cmd, start: time.Now(), done: make(chan struct{})}
	go r.read(stream)
	return r, nil
}

// read decodes the event stream until it ends.
func (r *fuzzRun) read(stream io.Reader) {
	defer close(r.done)
	dec := event.NewDecoder(stream)
	for {
		e, err := dec.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		r.mu.Lock()
		switch {
		case err != nil:
			r.readErr = cmp(r.readErr, err)
		case e.Type == event.Stats || e.Type == event.Done:
			r.last = e
		case e.Type == event.Failure:
			r.failures++
		case e.Type == event.Flaky:
			r.flaky++
		}
		r.mu.Unlock()
	}
}

// cmp returns the first non-nil error.
func cmp(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// wait waits for fuzzbox to exit. Exit status 1 (a failure was found) is
// not an error here: -keepgoing runs on past failures and the CSV counts them.
func (r *fuzzRun) wait() error {
	err := r.cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("fuzzbox: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.readErr != nil {
		return fmt.Errorf("event stream: %w", r.readErr)
	}
	return nil
}

// A sample is one CSV row.
type sample struct {
	elapsed             time.Duration
	stats               event.Event
	failures, flaky     int
	driver, coordinator proc    // the coordinator is zero before it starts
	workers             []proc  // the coordinator's children
	cache, corpus       dirSize // the cache directory, testdata/fuzz
	load1               float64 // the 1-minute load average
}

// sample measures the run now.
func (r *fuzzRun) sample(cacheDir, corpusDir string) sample {
	s := sample{elapsed: time.Since(r.start)}
	r.mu.Lock()
	s.stats, s.failures, s.flaky = r.last, r.failures, r.flaky
	r.mu.Unlock()
	tree := readProcs()
	s.driver = tree.get(r.cmd.Process.Pid)
	s.coordinator = tree.coordinator(r.cmd.Process.Pid)
	if s.coordinator.pid != 0 {
		s.workers = tree.children(s.coordinator.pid)
	}
	s.cache = measureDir(cacheDir)
	s.corpus = measureDir(corpusDir)
	s.load1 = loadAverage()
	return s
}
