package lsp

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/lsp/command"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Run events: every run reports its start, its live numbers and its end as
// fuzzbox/run notifications (command.RunEvent), for clients that show runs
// as test results (the VS Code extension's Test Explorer). Other clients
// ignore them; they have the progress, log and message notifications.

var runKinds = map[runKind]string{runFuzz: command.KindFuzz, runSeeds: command.KindSeeds, runEntry: command.KindEntry}

// runEvent sends one event of run r.
func (s *Server) runEvent(r *run, state, msg string, execs int64) {
	s.notify(context.Background(), command.RunNotification, command.RunEvent{Test: testID(r.key), Run: runKinds[r.kind],
		Entry: r.entry, State: state, Message: msg, Execs: int(execs)})
}

// runEnded sends the end event of run r, whose body answered msg.
func (s *Server) runEnded(ctx context.Context, r *run, msg protocol.ShowMessageParams) {
	r.mu.Lock()
	f := r.found
	r.mu.Unlock()
	e := command.RunEvent{Test: testID(r.key), Run: runKinds[r.kind], Entry: r.entry, Message: msg.Message}
	switch {
	case f != nil:
		e.State, e.Failure = command.StateFailed, s.wireFailure(f)
	case ctx.Err() != nil:
		e.State = command.StateStopped
	case msg.Type == protocol.MessageError:
		e.State = command.StateErrored
	default:
		e.State = command.StatePassed
	}
	s.notify(context.Background(), command.RunNotification, e)
}

// wireFailure is a failure as RunEvent carries it, with the reproducer's
// values and the stack's frames.
func (s *Server) wireFailure(f *failure) *command.Failure {
	w := &command.Failure{Kind: f.kind, Message: f.message, Stack: f.stack, Line: f.line,
		Frames: stackFrames(f.stack), Values: []string{}}
	if f.file != "" {
		w.URI = string(pathURI(f.file))
	}
	if f.reproducer != "" {
		w.Reproducer = string(pathURI(f.reproducer))
		if text, err := s.readFile(f.reproducer); err == nil {
			if vals, err := corpus.Unmarshal([]byte(text)); err == nil {
				for _, v := range vals {
					w.Values = append(w.Values, readable(v))
				}
			}
		}
	}
	return w
}

// frameRE matches a goroutine stack's frame: the function line, then the
// tab-indented file:line.
var frameRE = regexp.MustCompile(`(?m)^(\S[^\n]*)\n\s+(/\S+\.go):(\d+)`)

// stackFrames returns the frames of a Go stack trace, innermost first.
func stackFrames(stack string) []command.Frame {
	out := []command.Frame{}
	for _, m := range frameRE.FindAllStringSubmatch(stack, -1) {
		fn := m[1]
		if i := strings.LastIndex(fn, "("); i > 0 && strings.HasSuffix(fn, ")") {
			fn = fn[:i]
		}
		n, _ := strconv.Atoi(m[3])
		out = append(out, command.Frame{Func: fn, URI: string(pathURI(m[2])), Line: n})
	}
	return out
}
