package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Work-done progress: each run gets a server-created token (when the
// client supports window.workDoneProgress), begin/report/end notifications,
// and window/workDoneProgress/cancel stops the run.

func (s *Server) progressBegin(r *run, title string) {
	s.mu.Lock()
	ok := s.caps.Window.WorkDoneProgress
	s.nextToken++
	token := json.RawMessage(fmt.Sprintf(`"fuzzbox-%d"`, s.nextToken))
	s.mu.Unlock()
	if !ok {
		return
	}
	ctx := context.Background()
	if err := s.conn.Call(s.calls, "window/workDoneProgress/create", protocol.WorkDoneProgressCreateParams{Token: token}, nil); err != nil {
		s.logf("window/workDoneProgress/create: %v", err)
		return
	}
	s.mu.Lock()
	r.token = token // read by cancelProgress under mu; written only here
	s.mu.Unlock()
	s.notify(ctx, "$/progress", protocol.ProgressParams{Token: r.token,
		Value: protocol.WorkDoneProgress{Kind: "begin", Title: title, Cancellable: true}})
}

func (s *Server) progressReport(r *run, msg string) {
	if r.token == nil {
		return
	}
	s.notify(context.Background(), "$/progress", protocol.ProgressParams{Token: r.token,
		Value: protocol.WorkDoneProgress{Kind: "report", Message: msg, Cancellable: true}})
}

func (s *Server) progressEnd(r *run, msg string) {
	if r.token == nil {
		return
	}
	s.notify(context.Background(), "$/progress", protocol.ProgressParams{Token: r.token,
		Value: protocol.WorkDoneProgress{Kind: "end", Message: msg}})
}

// cancelProgress stops the run that reports with the token.
func (s *Server) cancelProgress(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	var p protocol.WorkDoneProgressCancelParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.runs {
		if r.token != nil && bytes.Equal(r.token, p.Token) {
			r.cancel()
		}
	}
	return nil, nil
}
