package lsp

import (
	"context"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Code actions: the suggested fixes of the fuzzvet diagnostics that
// overlap the requested range.

func (s *Server) codeAction(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	var p protocol.CodeActionParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return []protocol.CodeAction{}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	actions := []protocol.CodeAction{}
	for _, byPath := range s.diags {
		for _, d := range byPath[path] {
			if overlaps(d.Range, p.Range) {
				actions = append(actions, d.fixes...)
			}
		}
	}
	return actions, nil
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// overlaps reports whether two ranges share a position (touching counts).
func overlaps(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}
