package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/lsp/command"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Runs: at most one per fuzz test (fuzzing, its seeds, or one corpus
// entry), each in its own goroutine with a cancellable context, reported
// through $/progress, window/logMessage and window/showMessage. shutdown
// and exit cancel them all and wait (Server.stopAll).

// testKey names a fuzz test: its package directory and name.
type testKey struct{ dir, name string }

type runKind int

const (
	runFuzz  runKind = iota // fuzzing (driver.Fuzz)
	runSeeds                // the seed corpus (driver.Replay)
	runEntry                // one corpus entry (driver.Replay)
)

// A run is one running job. Its fields are set before it starts, except
// state, which mu guards.
type run struct {
	kind   runKind
	key    testKey // set by startRun
	test   string
	entry  string // runEntry: the file name
	cancel context.CancelFunc
	token  protocol.ProgressToken

	mu    sync.Mutex
	state string   // live state for the lens, e.g. "1234 execs/s, corpus 12, new 3"
	found *failure // the failure the run found, for its end event

	covShown time.Time // when a new-coverage progress report was last sent (onEvent's: one event at a time)
}

// coverageEvery is how often at most a run's progress reports new coverage:
// a fuzz test's first seconds can find hundreds of inputs a second (expr's
// FuzzExpr: 403 reports in its first 10 s), each of which would be a
// $/progress message.
const coverageEvery = 250 * time.Millisecond

// showCoverage reports whether new coverage found at now is to be shown,
// and if so notes that it was.
func (r *run) showCoverage(now time.Time) bool {
	if now.Sub(r.covShown) < coverageEvery {
		return false
	}
	r.covShown = now
	return true
}

// setFound records the run's failure (the first one).
func (r *run) setFound(f *failure) {
	r.mu.Lock()
	if r.found == nil {
		r.found = f
	}
	r.mu.Unlock()
}

func (r *run) status() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	verb := map[runKind]string{runFuzz: "fuzzing", runSeeds: "running seeds", runEntry: "running this input"}[r.kind]
	if r.state == "" {
		return "(" + verb + "…)"
	}
	return "(" + verb + ": " + r.state + ")"
}

func (r *run) setState(s string) {
	r.mu.Lock()
	r.state = s
	r.mu.Unlock()
}

// A failure is the last failure of a fuzz test, for its lens and diagnostic.
type failure struct {
	test       string
	kind       string // panic, fail, fatal, exit, hang, oom, race
	message    string // first line
	reproducer string // absolute path of the reproducer file; "" when there is none (an f.Add seed)
	seed       string // the seed corpus entry that failed, while fuzzing (event.Event.Seed)
	file       string // the first frame in the user's module
	line       int
	stack      string // the whole report with its stack
}

// title is the lens text: kind and the message's first line.
func (f *failure) title() string { return clip(f.kind+": "+f.message, 80) }

// startRun registers and starts a run of key; body does the work and
// returns the message to show when the run ends. It fails when the test
// already has a run.
func (s *Server) startRun(key testKey, r *run, title string, body func(ctx context.Context, r *run) protocol.ShowMessageParams) error {
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	s.mu.Lock()
	if s.state == stateShutdown {
		s.mu.Unlock()
		cancel()
		return invalidParams("server is shutting down")
	}
	if old := s.runs[key]; old != nil {
		s.mu.Unlock()
		cancel()
		return invalidParams("%s is already running (%s); stop it first", key.name, strings.Trim(old.status(), "()"))
	}
	r.key = key
	s.runs[key] = r
	s.runsWG.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.runsWG.Done()
		defer cancel()
		s.runEvent(r, command.StateStarted, title, 0)
		s.progressBegin(r, title)
		s.refreshLenses()
		msg := body(ctx, r)
		s.mu.Lock()
		delete(s.runs, key)
		s.mu.Unlock()
		s.runEnded(ctx, r, msg)
		s.progressEnd(r, msg.Message)
		s.notify(context.Background(), "window/showMessage", msg)
		s.refreshLenses()
	}()
	return nil
}

// replay runs the seeds or one entry of a test with driver.Replay.
func (s *Server) replay(ctx context.Context, key testKey, r *run) protocol.ShowMessageParams {
	what := key.name
	if r.entry != "" {
		what += "/" + r.entry
	}
	s.logMessage("go test -run=^%s$ in %s", strings.Replace(what, "/", "$/^", 1), key.dir)
	res, err := driver.Replay(ctx, s.config(key.dir), driver.Target{Dir: key.dir, Name: key.name}, r.entry)
	if res.Output != "" {
		s.logMessage("%s", strings.TrimRight(res.Output, "\n"))
	}
	switch {
	case ctx.Err() != nil:
		return protocol.ShowMessageParams{Type: protocol.MessageInfo, Message: what + ": stopped"}
	case err != nil:
		return protocol.ShowMessageParams{Type: protocol.MessageError, Message: what + ": " + firstLines(err.Error(), 3)}
	case res.Passed:
		s.clearFailure(key, r.entry)
		return protocol.ShowMessageParams{Type: protocol.MessageInfo, Message: what + ": pass"}
	}
	f := &failure{test: key.name, kind: res.Kind, message: firstLines(res.Message, 1), file: res.Frame.File, line: res.Frame.Line,
		stack: strings.TrimSpace(res.Output)}
	if res.Entry != "" {
		if p := filepath.Join(key.dir, "testdata", "fuzz", key.name, res.Entry); fileExists(p) {
			f.reproducer = p
		}
		what = key.name + "/" + res.Entry
	}
	s.setFailure(key, f)
	r.setFound(f)
	return protocol.ShowMessageParams{Type: protocol.MessageError, Message: fmt.Sprintf("%s: %s failure: %s", what, f.kind, f.message)}
}

// setFailure records a test's failure: lens and diagnostic.
func (s *Server) setFailure(key testKey, f *failure) {
	s.mu.Lock()
	s.failures[key] = f
	s.mu.Unlock()
	s.setDiagnostics(context.Background(), "run:"+key.dir+"/"+key.name, s.failureDiagnostic(f))
}

// clearFailure forgets a test's failure after its seeds pass, or after the
// entry that was its reproducer passes.
func (s *Server) clearFailure(key testKey, entry string) {
	s.mu.Lock()
	f := s.failures[key]
	if f == nil || entry != "" && filepath.Base(f.reproducer) != entry {
		s.mu.Unlock()
		return
	}
	delete(s.failures, key)
	s.mu.Unlock()
	s.setDiagnostics(context.Background(), "run:"+key.dir+"/"+key.name, nil)
}

// refreshLenses asks the client to ask for code lenses again
// (workspace/codeLens/refresh), so live state shows; clients without it
// see the state on their next request.
func (s *Server) refreshLenses() {
	if err := s.conn.Call(s.calls, "workspace/codeLens/refresh", nil, nil); err != nil {
		s.logf("workspace/codeLens/refresh: %v", err)
	}
}

// logMessage appends a line to the client's output log.
func (s *Server) logMessage(format string, args ...any) {
	s.notify(context.Background(), "window/logMessage", protocol.LogMessageParams{Type: protocol.MessageLog, Message: fmt.Sprintf(format, args...)})
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
