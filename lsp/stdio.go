package lsp

import (
	"context"
	"os"
	"time"
)

// ServeStdio runs a server with opts on the process's standard input and
// output, as fuzzbox lsp does for an editor; see Server.Serve for when it
// returns.
func ServeStdio(ctx context.Context, opts Options) error {
	return New(opts).Serve(ctx, stdio{})
}

// stdio is standard input and output as one stream for the LSP connection.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }

// Close implements io.Closer; closing stdin ends the read loop.
func (stdio) Close() error {
	os.Stdin.SetReadDeadline(time.Now())
	return os.Stdin.Close()
}
