package lsp

import (
	"context"
	"io"
	"log"
	"os"
	"time"
)

// NewLog returns the logger of the sidecar's own log, as fuzzbox lsp keeps
// it (its Printf is Options.Logf): lines prefixed "fuzzbox lsp: " and
// timestamped, written to w, or appended to the file path when path is not
// "". closeLog closes that file.
func NewLog(path string, w io.Writer) (l *log.Logger, closeLog func() error, err error) {
	closeLog = func() error { return nil }
	if path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, nil, err
		}
		w, closeLog = f, f.Close
	}
	return log.New(w, "fuzzbox lsp: ", log.LstdFlags), closeLog, nil
}

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
