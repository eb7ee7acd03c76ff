package driver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// stopGrace is how long a fuzzing binary has, after SIGINT, to write what
// it found before it is killed.
const stopGrace = 5 * time.Second

// runTarget runs the fuzzing binary for one turn of r's target, in its
// package directory, and records the outcome in r.
func runTarget(ctx context.Context, cfg Config, r *TargetResult, fuzztime string, multi bool, s *stream) {
	args, err := cfg.childArgs(r.Target, fuzztime, multi)
	if err != nil {
		r.Err = oneLine(err)
		return
	}
	cmd := exec.Command(r.Binary, args...)
	cmd.Dir = r.Dir
	cmd.Stderr = cfg.stderr()
	evR, evW, err := os.Pipe()
	if err != nil {
		r.Err = oneLine(err)
		return
	}
	cmd.ExtraFiles = []*os.File{evW} // fd ipc.EventsFD
	outR, outW := io.Pipe()
	cmd.Stdout = outW
	err = cmd.Start()
	evW.Close() // the child has its copy
	if err != nil {
		evR.Close()
		r.Err = oneLine(err)
		return
	}
	r.started = false // before readEvents, which sets it, starts
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); readEvents(evR, r, s) }()
	go func() { defer wg.Done(); copyOutput(outR, r.Target, s) }()
	err = waitChild(ctx, cmd)
	outW.Close()
	wg.Wait()
	c := childExit(err)
	if c > r.ExitCode {
		r.ExitCode = c
	}
	if c != ExitOK && !r.started && ctx.Err() == nil {
		// The package's tests or seeds failed before the engine started;
		// a test that calls os.Exit leaves nothing else to explain it.
		s.emit(event.Event{Type: event.Output, Target: r.Name, Package: r.Package, Output: fmt.Sprintf(
			"fuzzbox: the fuzzing binary of %s stopped (%v) before fuzzing %s started: a test or seed input of the package failed; run go test in %s to see which (fuzzbox fuzz -run='^$' runs no tests first)\n",
			r.Package, err, r.Name, r.Dir)})
	}
}

// waitChild waits for the fuzzing binary. When ctx is cancelled it sends
// SIGINT (a terminal's Ctrl-C has already reached the whole process group;
// a cancelled editor run has not), and kills the binary if it has not
// exited within stopGrace.
func waitChild(ctx context.Context, cmd *exec.Cmd) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-done:
		return err
	case <-time.After(stopGrace):
		cmd.Process.Kill()
		return <-done
	}
}

// childExit maps the fuzzing binary's exit to the driver's: any failure of
// the binary (a failure found, failing or panicking tests: exit 1 or 2, as
// go test reports them all as FAIL) is ExitFailure; a binary that did not
// exit normally (killed) is ExitError.
func childExit(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee) && ee.ExitCode() > 0:
		return ExitFailure
	}
	return ExitError
}

// readEvents consumes the engine's event stream: it records results in r
// and passes each event on, with the package.
func readEvents(rd io.ReadCloser, r *TargetResult, s *stream) {
	defer rd.Close()
	dec := event.NewDecoder(rd)
	for {
		e, err := dec.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			continue // not an event: skip the line, keep the stream
		}
		record(r, e)
		e.Package = r.Package
		s.emit(e)
	}
}

// record notes what e means for the target's result.
func record(r *TargetResult, e event.Event) {
	switch e.Type {
	case event.Failure:
		if !e.Duplicate {
			r.Failures = append(r.Failures, e)
		}
	case event.Flaky:
		r.Flaky = append(r.Flaky, e)
	case event.InternalError:
		r.Internal = append(r.Internal, e)
	case event.Baseline:
		r.started = true
	case event.Done:
		r.Execs += e.Execs
		if e.Error != "" {
			r.Err = e.Error
		}
	}
}

// copyOutput turns the fuzzing binary's standard output into output events.
func copyOutput(rd io.Reader, t Target, s *stream) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64<<10), 64<<20) // longer lines are cut
	for sc.Scan() {
		s.emit(event.Event{Type: event.Output, Target: t.Name, Package: t.Package, Output: sc.Text() + "\n"})
	}
	io.Copy(io.Discard, rd)
}
