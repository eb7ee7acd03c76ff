package lsp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/event"
	"github.com/fuzzbox/fuzzbox/lsp/command"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Fuzzing from the editor: driver.Resolve finds the test, and driver.Fuzz
// runs its fuzzing binary (a child process, so a crash cannot take the
// sidecar down) and hands its event stream to onEvent as values. Stats become the lens's live state and
// progress reports; every event's status line goes to the output log; a
// failure becomes the test's failure (lens, diagnostic, reproducer).

func (s *Server) fuzz(key testKey, _ string) (any, error) {
	r := &run{kind: runFuzz, test: key.name}
	err := s.startRun(key, r, "fuzzbox: fuzzing "+key.name, func(ctx context.Context, r *run) protocol.ShowMessageParams {
		return s.fuzzRun(ctx, key, r)
	})
	if err != nil {
		return nil, err
	}
	return RunStarted{Started: key.name}, nil
}

func (s *Server) fuzzRun(ctx context.Context, key testKey, r *run) protocol.ShowMessageParams {
	cfg := s.config(key.dir)
	cfg.Fuzz, cfg.Parallel = "^"+key.name+"$", s.opts.Parallel
	cfg.RSSLimitMB = driver.DefaultRSSLimitMB // as fuzzbox fuzz's
	stderr := s.logWriter()
	defer stderr.Close()
	cfg.Stderr = stderr
	if s.opts.FuzzTime > 0 {
		cfg.FuzzTime = s.opts.FuzzTime.String()
	}
	targets, err := driver.Resolve(ctx, cfg, nil)
	if err != nil {
		return protocol.ShowMessageParams{Type: protocol.MessageError, Message: fmt.Sprintf("%s: %v", key.name, err)}
	}
	var found *failure
	res := driver.Fuzz(ctx, cfg, targets, func(e event.Event) {
		if f := s.onEvent(key, r, e); f != nil && found == nil {
			found = f
		}
	})
	var execs int64
	for _, t := range res.Targets {
		execs += t.Execs
	}
	switch {
	case found != nil:
		s.setFailure(key, found)
		r.setFound(found)
		msg := fmt.Sprintf("%s: found %s failure: %s", key.name, found.kind, found.message)
		switch {
		case found.seed != "":
			msg += " (seed corpus entry " + key.name + "/" + found.seed + ")"
		case found.reproducer != "":
			msg += " (reproducer " + relTo(key.dir, found.reproducer) + ")"
		}
		return protocol.ShowMessageParams{Type: protocol.MessageError, Message: msg}
	case res.ExitCode == driver.ExitError:
		return protocol.ShowMessageParams{Type: protocol.MessageError, Message: fmt.Sprintf("%s: %v", key.name, res.Err)}
	case ctx.Err() != nil:
		return protocol.ShowMessageParams{Type: protocol.MessageInfo, Message: fmt.Sprintf("%s: stopped after %d executions, no failure", key.name, execs)}
	case res.ExitCode == driver.ExitFailure:
		for _, t := range res.Targets {
			if t.StartFailed != "" {
				return protocol.ShowMessageParams{Type: protocol.MessageError, Message: key.name + ": its code before f.Fuzz failed in a fuzzing worker process (see the output log)"}
			}
		}
		return protocol.ShowMessageParams{Type: protocol.MessageError, Message: key.name + ": the package's tests failed (see the output log)"}
	}
	return protocol.ShowMessageParams{Type: protocol.MessageInfo, Message: fmt.Sprintf("%s: no failure in %d executions", key.name, execs)}
}

// onEvent logs an event, updates the run's live state, and returns the
// failure it reports, if any.
func (s *Server) onEvent(key testKey, r *run, e event.Event) *failure {
	if e.Type == event.Output {
		s.logMessage("%s", strings.TrimRight(e.Output, "\n"))
	} else if line := event.Format(e); line != "" {
		s.logMessage("%s", line)
	}
	switch e.Type {
	case event.Build, event.Tests:
		s.progressReport(r, phaseMessage(e))
	case event.Baseline, event.Start:
		s.progressReport(r, "baseline coverage "+e.Progress)
	case event.Stats:
		st := fmt.Sprintf("%.0f execs/s, corpus %d, new %d", e.ExecsPerSec, e.Corpus, e.New)
		r.setState(st)
		live := fmt.Sprintf("%d execs, %s, %d edges", e.Execs, st, e.Edges)
		s.progressReport(r, live)
		s.runEvent(r, command.StateProgress, live, e.Execs)
		s.refreshLenses()
	case event.Coverage:
		if r.showCoverage(time.Now()) {
			s.progressReport(r, fmt.Sprintf("new coverage: corpus %d", e.Corpus))
		}
	case event.Flaky, event.Warning, event.InternalError:
		// Not failures, but the user should see them without opening the log.
		s.notify(context.Background(), "window/showMessage", protocol.ShowMessageParams{
			Type: protocol.MessageWarning, Message: key.name + ": " + strings.TrimPrefix(event.Format(e), "fuzz: ")})
	case event.Minimizing:
		if e.Kind == "" {
			return nil // the periodic line: the state says so already
		}
		r.setState("minimizing " + e.Kind + " failure")
		s.progressReport(r, "minimizing "+e.Kind+" failure: "+e.Headline())
		s.refreshLenses()
	case event.Failure:
		if e.Duplicate {
			return nil
		}
		f := &failure{test: key.name, kind: e.Kind, message: strings.TrimPrefix(e.Headline(), e.Kind+": "), reproducer: e.Reproducer,
			seed: e.Seed, stack: e.Message}
		if f.reproducer != "" && !filepath.IsAbs(f.reproducer) {
			f.reproducer = filepath.Join(key.dir, f.reproducer)
		}
		if at, ok := driver.FailureFrame(e.Headline()+"\n"+e.Message, key.dir, driver.CodeRoot(key.dir)); ok {
			f.file, f.line = at.File, at.Line
		}
		return f
	}
	return nil
}

// phaseMessage is a run's progress while it builds or runs the package's
// tests: the driver's notice once it has one (how long so far; that a first
// build instruments the standard library too, a minute or two), so that an
// editor does not show a bare "building" for that long.
func phaseMessage(e event.Event) string {
	switch {
	case e.Message != "":
		return e.Message
	case e.Type == event.Build:
		return "building"
	}
	return "running the package's tests"
}

// logWriter is an io.Writer whose lines go to the client's output log.
// Close it when done.
func (s *Server) logWriter() io.WriteCloser {
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			s.logMessage("%s", sc.Text())
		}
	}()
	return pw
}

func relTo(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil {
		return r
	}
	return p
}
