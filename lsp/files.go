package lsp

import (
	"context"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Text synchronization: the server keeps the full text of open documents
// (TextDocumentSyncKindFull) for lenses and hovers, and runs fuzzvet when a
// Go file or corpus file is opened or saved.

func (s *Server) didOpen(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	var p protocol.DidOpenTextDocumentParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return nil, nil // not a file: nothing to do
	}
	s.mu.Lock()
	s.open[path] = p.TextDocument.Text
	s.mu.Unlock()
	s.vetLater(path)
	return nil, nil
}

func (s *Server) didChange(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	var p protocol.DidChangeTextDocumentParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	path, err := uriPath(p.TextDocument.URI)
	if err != nil || len(p.ContentChanges) == 0 {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	text, ok := s.open[path]
	if !ok {
		return nil, nil
	}
	for _, c := range p.ContentChanges {
		text = applyChange(text, c)
	}
	s.open[path] = text
	return nil, nil
}

// applyChange returns text after change c: the whole new text, or, from
// a client that sends incremental changes (any in proxy mode, where gopls's
// text synchronization is the one announced), its range replaced. Those
// were ignored: the sidecar's lenses and checks read text many edits old.
func applyChange(text string, c protocol.TextDocumentContentChangeEvent) string {
	if c.Range == nil {
		return c.Text
	}
	start, end := offset(text, c.Range.Start), offset(text, c.Range.End)
	if end < start {
		start, end = end, start
	}
	return text[:start] + c.Text + text[end:]
}

func (s *Server) didSave(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	var p protocol.DidSaveTextDocumentParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return nil, nil
	}
	if p.Text != nil {
		s.mu.Lock()
		s.open[path] = *p.Text
		s.mu.Unlock()
	}
	s.vetLater(path)
	return nil, nil
}

func (s *Server) didClose(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	var p protocol.DidCloseTextDocumentParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	if path, err := uriPath(p.TextDocument.URI); err == nil {
		s.mu.Lock()
		delete(s.open, path)
		s.mu.Unlock()
	}
	return nil, nil
}
