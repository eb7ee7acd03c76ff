package lsp

import (
	"context"

	"github.com/sourcegraph/jsonrpc2"
)

// ignored is the explicit stub of the notifications the sidecar accepts and
// has no use for ($/cancelRequest: every request is answered at once;
// configuration and watched-file changes: lenses and diagnostics are
// computed on demand). Every other unknown method gets MethodNotFound.
func (s *Server) ignored(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	return nil, nil
}
