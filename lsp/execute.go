package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/lsp/command"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// workspace/executeCommand: the commands of lsp/command. Runs are started
// in the background and answered at once with a RunStarted; their result
// comes as window/showMessage.

// RunStarted is the answer to a command that started a run.
type RunStarted struct {
	Started string `json:"started"` // "FuzzX" or "FuzzX/entry"
}

func (s *Server) executeCommand(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	var p protocol.ExecuteCommandParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	if len(p.Arguments) != 1 {
		return nil, invalidParams("%s: want 1 argument, got %d", p.Command, len(p.Arguments))
	}
	arg := p.Arguments[0]
	switch p.Command {
	case command.Fuzz:
		return withTest(s, arg, s.fuzz)
	case command.Stop:
		return withTest(s, arg, s.stop)
	case command.RunSeeds:
		return withTest(s, arg, s.runSeeds)
	case command.OpenReproducer:
		return withTest(s, arg, s.openReproducer)
	case command.RerunEntry:
		return withEntry(s, arg, s.rerunEntry)
	case command.ShowEntry:
		return withEntry(s, arg, s.showEntry)
	case command.DebugEntry:
		return withEntry(s, arg, s.debugEntry)
	case command.Tests:
		return withFolder(s, arg, s.tests)
	case command.Coverage:
		return withTest(s, arg, func(k testKey, _ string) (any, error) { return s.coverage(ctx, k) })
	case command.CoverageGaps:
		return withTest(s, arg, func(k testKey, _ string) (any, error) { return s.coverageGaps(ctx, k) })
	case command.ShowGenerated:
		return withGenerated(s, arg, s.showGenerated)
	case command.CopyGenerated:
		return withGenerated(s, arg, s.copyGenerated)
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "unknown command " + p.Command}
}

// withTest decodes FuzzArgs, checks the file is in the workspace and
// declares the test, and calls f.
func withTest(s *Server, arg json.RawMessage, f func(testKey, string) (any, error)) (any, error) {
	var a command.FuzzArgs
	if err := json.Unmarshal(arg, &a); err != nil {
		return nil, invalidParams("bad arguments: %v", err)
	}
	path, err := s.workspacePath(a.URI)
	if err != nil {
		return nil, err
	}
	text, err := s.readFile(path)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	tests, _ := fuzzTests(path, text)
	for _, t := range tests {
		if t.Name == a.Name {
			return f(testKey{filepath.Dir(path), a.Name}, path)
		}
	}
	return nil, invalidParams("%s declares no fuzz test %q", path, a.Name)
}

// withFolder decodes FolderArgs, checks the folder is a directory in the
// workspace, and calls f.
func withFolder(s *Server, arg json.RawMessage, f func(string) (any, error)) (any, error) {
	var a command.FolderArgs
	if err := json.Unmarshal(arg, &a); err != nil {
		return nil, invalidParams("bad arguments: %v", err)
	}
	path, err := s.workspacePath(a.URI)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return nil, invalidParams("%s is not a directory", path)
	}
	return f(path)
}

// withEntry decodes EntryArgs and checks the file is a corpus file of the workspace.
func withEntry(s *Server, arg json.RawMessage, f func(string) (any, error)) (any, error) {
	var a command.EntryArgs
	if err := json.Unmarshal(arg, &a); err != nil {
		return nil, invalidParams("bad arguments: %v", err)
	}
	path, err := s.workspacePath(a.URI)
	if err != nil {
		return nil, err
	}
	if !isCorpusFile(path) || !fileExists(path) {
		return nil, invalidParams("%s is not a file under testdata/fuzz/FuzzX/", path)
	}
	return f(path)
}

func (s *Server) runSeeds(key testKey, _ string) (any, error) {
	r := &run{kind: runSeeds, test: key.name}
	err := s.startRun(key, r, "fuzzbox: run seeds of "+key.name, func(ctx context.Context, r *run) protocol.ShowMessageParams {
		return s.replay(ctx, key, r)
	})
	if err != nil {
		return nil, err
	}
	return RunStarted{Started: key.name}, nil
}

func (s *Server) rerunEntry(path string) (any, error) {
	dir, name := corpusTest(path)
	key := testKey{dir, name}
	r := &run{kind: runEntry, test: name, entry: filepath.Base(path)}
	err := s.startRun(key, r, "fuzzbox: rerun "+name+"/"+r.entry, func(ctx context.Context, r *run) protocol.ShowMessageParams {
		return s.replay(ctx, key, r)
	})
	if err != nil {
		return nil, err
	}
	return RunStarted{Started: name + "/" + r.entry}, nil
}

// stop cancels the test's run; stopping a test that is not running is not an error.
func (s *Server) stop(key testKey, _ string) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.runs[key]; r != nil {
		r.cancel()
	}
	return nil, nil
}

// openReproducer asks the client to show the reproducer of the test's last
// failure; a client without window/showDocument (Neovim 0.7), or one that
// fails to show it, gets its path as a message instead.
func (s *Server) openReproducer(key testKey, _ string) (any, error) {
	s.mu.Lock()
	f := s.failures[key]
	canShow := s.caps.Window.ShowDocument != nil && s.caps.Window.ShowDocument.Support
	s.mu.Unlock()
	if f == nil || f.reproducer == "" {
		return nil, invalidParams("%s has no reproducer", key.name)
	}
	if !canShow {
		s.reproducerMessage(key.name, f.reproducer)
		return OpenedReproducer{Path: f.reproducer}, nil
	}
	// asynchronous: the client's answer is read by the goroutine running this handler
	go func() {
		var res protocol.ShowDocumentResult
		err := s.conn.Call(s.calls, "window/showDocument",
			protocol.ShowDocumentParams{URI: pathURI(f.reproducer), TakeFocus: true}, &res)
		if err != nil || !res.Success {
			s.logf("window/showDocument %s: success=%v %v", f.reproducer, res.Success, err)
			s.reproducerMessage(key.name, f.reproducer)
		}
	}()
	return OpenedReproducer{Path: f.reproducer}, nil
}

// reproducerMessage tells the user where a test's reproducer is.
func (s *Server) reproducerMessage(test, path string) {
	s.notify(context.Background(), "window/showMessage",
		protocol.ShowMessageParams{Type: protocol.MessageInfo, Message: test + ": reproducer " + path})
}

// OpenedReproducer is the answer to fuzzbox.openReproducer.
type OpenedReproducer struct {
	Path string `json:"path"` // the reproducer shown with window/showDocument
}

// showEntry shows a corpus file's decoded values as a message.
func (s *Server) showEntry(path string) (any, error) {
	text, err := s.readFile(path)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	vals, err := corpus.Unmarshal([]byte(text))
	msg := filepath.Base(path) + ": "
	if err != nil {
		msg += "malformed: " + err.Error()
	} else {
		msg += strings.TrimPrefix(valuesTitle(vals), "values: ")
	}
	s.notify(context.Background(), "window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageInfo, Message: msg})
	return nil, nil
}
