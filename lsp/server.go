package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/lsp/command"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Options configure a Server. The zero value is valid.
type Options struct {
	// FuzzTime bounds a fuzz run started from a lens; 0 = until stopped.
	FuzzTime time.Duration
	// Parallel is the number of fuzzing workers; 0 = GOMAXPROCS.
	Parallel int
	// Tags are the build tags of every build and package listing
	// (driver.Config.Tags), Short is go test's -short (driver.Config.Short)
	// and Vet its -vet (driver.Config.Vet), for every run, replay, coverage
	// report and debug session: the editor's go.buildTags and go.testFlags.
	Tags  string
	Short bool
	Vet   string
	// TestArgs go to the test binary after its flags in every run, replay,
	// coverage report and debug session (driver.Config.TestArgs): what
	// follows -args in the editor's go.testFlags, such as a TestMain's flags.
	TestArgs []string
	// BuildFlags are go test's build flags of the editor's go.testFlags
	// (-ldflags=…, -mod=…): the sidecar's own builds get them from GOFLAGS
	// (driver.UseBuildFlags), a debug session's build from DebugInfo.
	BuildFlags []string
	// Fuzzbox is the fuzzbox executable the fuzzing build runs as its
	// -toolexec (driver.Config.Fuzzbox); "" means this executable, which
	// must be fuzzbox itself (fuzzbox lsp is).
	Fuzzbox string
	// Gopls, when set, is the gopls binary to run behind the sidecar in
	// proxy mode (proxy.go).
	Gopls string
	// GoplsArgs are extra arguments for gopls.
	GoplsArgs []string
	// Logf, when set, receives the server's own log lines (never the
	// protocol stream); the command sends them to stderr.
	Logf func(format string, args ...any)
}

// config returns the driver configuration every operation on the package
// in dir starts from: the options the editor gave for its builds and runs.
func (s *Server) config(dir string) driver.Config {
	return driver.Config{Dir: dir, Tags: s.opts.Tags, Short: s.opts.Short, Vet: s.opts.Vet, TestArgs: s.opts.TestArgs, Fuzzbox: s.opts.Fuzzbox}
}

// A Server is one LSP session. Its methods are called by the jsonrpc2
// connection's handler goroutine (in order) and by the goroutines of runs
// and diagnostics; mu guards the state below it.
type Server struct {
	opts  Options
	conn  *jsonrpc2.Conn // the client; set once by Serve, then ready is closed
	ready chan struct{}  // handlers wait for it before they use conn
	// calls is the context of the server's own requests to the client; it
	// is cancelled at shutdown, so that a run waiting for an answer (which
	// the handler goroutine, busy with shutdown, would read) ends.
	calls       context.Context
	cancelCalls context.CancelFunc

	// extraDiags, in proxy mode, returns gopls's diagnostics of a file,
	// published together with fuzzbox's; set before Serve connects.
	extraDiags func(protocol.DocumentURI) []json.RawMessage

	mu          sync.Mutex
	state       serverState
	caps        protocol.ClientCapabilities
	init        command.InitOptions                // the client's initializationOptions
	roots       []string                           // workspace folders, absolute, symlinks resolved
	open        map[string]string                  // open documents: path -> text
	runs        map[testKey]*run                   // the run of each fuzz test, while it runs
	failures    map[testKey]*failure               // the last failure of each fuzz test
	diags       map[string]map[string][]diagnostic // producer -> path -> diagnostics
	vetGen      map[string]int                     // package dir -> generation of the newest fuzzvet request
	vetSlot     chan struct{}                      // held by the one fuzzvet load that runs (diagnostics.go)
	nextToken   int
	typed       typedCache         // typed corpus entries' values (typed.go)
	importPaths map[string]string  // package dir -> import path (generated.go)
	shownGen    map[testKey]string // listed generated corpora -> their last dirSignature
	watching    bool               // watchGenerated runs
	runsWG      sync.WaitGroup     // runs, diagnostics and typed-values requests in flight
	exited      chan struct{}      // closed on exit
	shutdownReq bool
}

type serverState int

const (
	stateNew serverState = iota
	stateInitialized
	stateShutdown
)

// New returns a server; Serve connects it to a client.
func New(opts Options) *Server {
	calls, cancel := context.WithCancel(context.Background())
	return &Server{
		opts:        opts,
		calls:       calls,
		cancelCalls: cancel,
		open:        map[string]string{},
		runs:        map[testKey]*run{},
		failures:    map[testKey]*failure{},
		diags:       map[string]map[string][]diagnostic{},
		vetGen:      map[string]int{},
		vetSlot:     make(chan struct{}, 1),
		importPaths: map[string]string{},
		shownGen:    map[testKey]string{},
		exited:      make(chan struct{}),
		ready:       make(chan struct{}),
	}
}

// Serve runs the session on rwc (stdio, or one end of net.Pipe in tests)
// until the client sends exit or closes the stream. It returns nil after
// shutdown and exit, and an error when the client went away without them.
// Every run is stopped before Serve returns.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var h jsonrpc2.Handler = handler{s}
	var p *proxy
	if s.opts.Gopls != "" {
		var err error
		if p, err = startProxy(ctx, s); err != nil {
			return err
		}
		h = p
	}
	codec := &lenientCodec{}
	stream := jsonrpc2.NewBufferedStream(rwc, codec)
	codec.reply = stream.WriteObject
	s.conn = jsonrpc2.NewConn(ctx, stream, h, jsonrpc2.SetLogger(discardLogger{s}))
	close(s.ready)
	var goplsGone <-chan struct{}
	if p != nil {
		goplsGone = p.gopls.DisconnectNotify()
	}
	var goplsErr error
	select {
	case <-s.conn.DisconnectNotify():
	case <-s.exited:
		s.conn.Close()
	case <-goplsGone:
		goplsErr = s.goplsExited(p)
	}
	s.stopAll()
	if p != nil {
		p.close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case goplsErr != nil:
		return goplsErr
	case !s.shutdownReq:
		return errors.New("lsp: client exited without shutdown")
	}
	return nil
}

// goplsExited ends a proxy session whose gopls went away, unless the client
// asked for the shutdown: every request would otherwise fail ("connection
// is closed"), fuzzbox's lenses too, and the client would never know to
// start the server again. It tells the client, closes the connection (an
// editor restarts a server that exits) and returns the session's error.
func (s *Server) goplsExited(p *proxy) error {
	s.mu.Lock()
	asked := s.shutdownReq
	s.mu.Unlock()
	if asked {
		// gopls ended on the shutdown's exit, which the client sent it
		// too: the session ends as the client says.
		select {
		case <-s.exited:
		case <-s.conn.DisconnectNotify():
		case <-time.After(5 * time.Second):
		}
		s.conn.Close()
		return nil
	}
	msg := "gopls exited; fuzzbox's language server (the proxy in front of it) stops too, so that the editor starts both again"
	s.notify(context.Background(), "window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageError, Message: msg})
	s.logf("%s", msg)
	s.conn.Close()
	return errors.New("lsp: " + msg)
}

// handler is the sidecar's jsonrpc2.Handler: messages are handled in order
// (handle), except slow commands, which answer from their own goroutine
// (handleAsync) so that lenses and edits do not wait for them.
type handler struct{ s *Server }

// Handle implements jsonrpc2.Handler.
func (h handler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if h.s.slow(req) {
		h.s.handleAsync(conn, req)
		return
	}
	jsonrpc2.HandlerWithError(h.s.handle).Handle(ctx, conn, req)
}

// slow reports whether req is a command that answers only after long work
// (command.Coverage, command.CoverageGaps: a build and a corpus replay).
func (s *Server) slow(req *jsonrpc2.Request) bool {
	if req.Notif || req.Method != "workspace/executeCommand" || req.Params == nil {
		return false
	}
	var p protocol.ExecuteCommandParams
	return json.Unmarshal(*req.Params, &p) == nil && (p.Command == command.Coverage || p.Command == command.CoverageGaps)
}

// handleAsync handles req in a goroutine that shutdown waits for; its
// context is cancelled at shutdown.
func (s *Server) handleAsync(conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	s.mu.Lock()
	if s.state == stateShutdown { // stopAll may be waiting on runsWG: add nothing to it
		s.mu.Unlock()
		s.reply(s.calls, req, nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "server is shut down"})
		return
	}
	s.runsWG.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.runsWG.Done()
		res, err := s.handle(s.calls, conn, req)
		s.reply(s.calls, req, res, err)
	}()
}

// reply answers a client request with a result (any JSON value) or an error.
func (s *Server) reply(ctx context.Context, req *jsonrpc2.Request, result any, err error) {
	var rerr *jsonrpc2.Error
	switch {
	case errors.As(err, &rerr):
		err = s.conn.ReplyWithError(ctx, req.ID, rerr)
	case err != nil:
		err = s.conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()})
	default:
		if raw, ok := result.(json.RawMessage); ok && len(raw) == 0 {
			result = nil
		}
		err = s.conn.Reply(ctx, req.ID, result)
	}
	if err != nil {
		s.logf("replying to %s: %v", req.Method, err)
	}
}

// handle is the one method switch of the sidecar (STYLE rule 11).
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	<-s.ready // NewConn starts reading before Serve has stored the connection
	if err := s.checkState(req.Method); err != nil {
		return nil, err
	}
	switch req.Method {
	case "initialize":
		return s.initialize(ctx, req)
	case "initialized":
		return nil, nil
	case "shutdown":
		return s.shutdown(ctx)
	case "exit":
		return s.exit(ctx)
	case "textDocument/didOpen":
		return s.didOpen(ctx, req)
	case "textDocument/didChange":
		return s.didChange(ctx, req)
	case "textDocument/didSave":
		return s.didSave(ctx, req)
	case "textDocument/didClose":
		return s.didClose(ctx, req)
	case "textDocument/codeLens":
		return s.codeLens(ctx, req)
	case "textDocument/hover":
		return s.hover(ctx, req)
	case "textDocument/codeAction":
		return s.codeAction(ctx, req)
	case "workspace/executeCommand":
		return s.executeCommand(ctx, req)
	case "window/workDoneProgress/cancel":
		return s.cancelProgress(ctx, req)
	case "$/cancelRequest", "$/setTrace", "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles",
		"workspace/didChangeWorkspaceFolders":
		return s.ignored(ctx, req)
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not found: " + req.Method}
}

// checkState refuses requests before initialize and after shutdown.
func (s *Server) checkState(method string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case method == "exit":
		return nil
	case s.state == stateNew && method != "initialize":
		return &jsonrpc2.Error{Code: protocol.CodeServerNotInitialized, Message: "server not initialized"}
	case s.state != stateNew && method == "initialize":
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "initialize sent twice"}
	case s.state == stateShutdown:
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "server is shut down"}
	}
	return nil
}

// decode unmarshals a request's params, answering InvalidParams on error.
func decode(req *jsonrpc2.Request, v any) error {
	if req.Params == nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: req.Method + ": missing params"}
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf("%s: %v", req.Method, err)}
	}
	return nil
}

func invalidParams(format string, args ...any) error {
	return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

// notify sends a notification to the client, logging a failure.
func (s *Server) notify(ctx context.Context, method string, params any) {
	if err := s.conn.Notify(ctx, method, params); err != nil {
		s.logf("notify %s: %v", method, err)
	}
}

type discardLogger struct{ s *Server }

func (l discardLogger) Printf(format string, v ...any) {
	l.s.logf(strings.TrimSuffix(format, "\n"), v...)
}

// lenientCodec is jsonrpc2.VSCodeObjectCodec that survives a malformed
// message: it reads whole frames, and a frame that is not a JSON-RPC message
// gets a parse error (or invalid request) response instead of closing the
// connection, as jsonrpc2.Conn does on any read error.
type lenientCodec struct {
	jsonrpc2.VSCodeObjectCodec
	reply func(any) error // writes a message to the client
}

// ReadObject implements jsonrpc2.ObjectCodec.
func (c *lenientCodec) ReadObject(r *bufio.Reader, v any) error {
	for {
		body, err := readFrame(r)
		if err != nil {
			return err
		}
		err = json.Unmarshal(body, v)
		if err == nil {
			return nil
		}
		code, id := int64(protocol.CodeParseError), json.RawMessage("null")
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(body, &probe) == nil {
			code = protocol.CodeInvalidRequest
			if len(probe.ID) > 0 {
				id = probe.ID
			}
		}
		c.reply(map[string]any{"jsonrpc": "2.0", "id": id,
			"error": map[string]any{"code": code, "message": "lsp: bad message: " + err.Error()}})
	}
}

// maxFrame bounds one message (64 MiB).
const maxFrame = 64 << 20

// readFrame reads one Content-Length framed body.
func readFrame(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if n < 0 {
				continue // a stray blank line; wait for a header
			}
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			n, err = strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 || n > maxFrame {
				return nil, fmt.Errorf("lsp: bad Content-Length %q", v)
			}
		}
	}
	body := make([]byte, n)
	_, err := io.ReadFull(r, body)
	return body, err
}
