package lsp

import (
	"context"
	"encoding/json"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/lsp/command"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

func (s *Server) initialize(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	var p protocol.InitializeParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	roots := rootsOf(p)
	s.mu.Lock()
	s.state = stateInitialized
	s.roots = roots
	if len(p.Capabilities) > 0 {
		json.Unmarshal(p.Capabilities, &s.caps) // best effort: unknown shapes leave the flags off
	}
	if len(p.InitializationOptions) > 0 {
		json.Unmarshal(p.InitializationOptions, &s.init) // best effort, as the capabilities
	}
	s.mu.Unlock()
	return s.initializeResult(), nil
}

// initializeResult is the sidecar's capabilities (the proxy merges them into gopls's).
func (s *Server) initializeResult() protocol.InitializeResult {
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{OpenClose: true, Change: protocol.SyncFull,
				Save: &protocol.SaveOptions{}},
			CodeLensProvider:       &protocol.CodeLensOptions{},
			HoverProvider:          true,
			CodeActionProvider:     &protocol.CodeActionOptions{CodeActionKinds: []string{protocol.QuickFix}},
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{Commands: command.Names()},
		},
		ServerInfo: &protocol.ServerInfo{Name: "fuzzbox"},
	}
}

// shutdown stops every run and waits for their processes to end.
func (s *Server) shutdown(ctx context.Context) (any, error) {
	s.mu.Lock()
	s.state = stateShutdown
	s.shutdownReq = true
	s.mu.Unlock()
	s.stopAll()
	return nil, nil
}

func (s *Server) exit(ctx context.Context) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.exited:
	default:
		close(s.exited)
	}
	return nil, nil
}

// stopAll cancels every run and waits for all of them (and pending
// diagnostics) to finish.
func (s *Server) stopAll() {
	s.cancelCalls()
	s.mu.Lock()
	for _, r := range s.runs {
		r.cancel()
	}
	s.mu.Unlock()
	s.runsWG.Wait()
}
