package lsp

import (
	"context"
	"errors"

	"github.com/sourcegraph/jsonrpc2"
)

// proxy runs gopls behind the sidecar (fuzzbox lsp -gopls=PATH).
type proxy struct{}

func startProxy(ctx context.Context, s *Server) (*proxy, error) {
	return nil, errors.New("lsp: proxy mode is not built yet")
}

// Handle implements jsonrpc2.Handler.
func (p *proxy) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {}

func (p *proxy) close() {}
