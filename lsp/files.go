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
	if last := p.ContentChanges[len(p.ContentChanges)-1]; last.Range == nil {
		s.open[path] = last.Text
	}
	s.mu.Unlock()
	return nil, nil
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
