package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/lsp/command"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Proxy mode (fuzzbox lsp -gopls=PATH): the sidecar starts the real gopls and
// stands between it and the client. Every message is forwarded both ways with
// its ID (so $/cancelRequest still names the right request); the answers
// the sidecar has its own part of are merged: initialize (capabilities and
// commands), codeLens and codeAction (gopls's list plus fuzzbox's; for
// codeLens, fuzzbox's alone when gopls has not answered within
// goplsLensWait, then a refresh),
// publishDiagnostics (gopls's plus fuzzbox's, per file), hover on corpus
// files (fuzzbox's; gopls has none), and executeCommand (fuzzbox's commands
// run here, every other one in gopls). A vscode-go user points
// go.alternateTools.gopls at a wrapper running this, and gets one server.

// A proxy is the handler of the client connection in proxy mode.
type proxy struct {
	s     *Server
	cmd   *exec.Cmd
	gopls *jsonrpc2.Conn

	mu         sync.Mutex
	goplsDiags map[protocol.DocumentURI][]json.RawMessage // the last diagnostics gopls published per file
}

// startProxy starts gopls and connects to it.
func startProxy(ctx context.Context, s *Server) (*proxy, error) {
	p := &proxy{s: s, goplsDiags: map[protocol.DocumentURI][]json.RawMessage{}}
	p.cmd = exec.Command(s.opts.Gopls, s.opts.GoplsArgs...)
	p.cmd.Env = driver.ChildEnv(os.Environ()) // gopls gets the user's GOFLAGS, not the test builds' flags
	in, err := p.cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("lsp: starting gopls: %w", err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("lsp: starting gopls: %w", err)
	}
	p.cmd.Stderr = logfWriter{s}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("lsp: starting gopls: %w", err)
	}
	stream := jsonrpc2.NewBufferedStream(pipeRWC{out, in}, jsonrpc2.VSCodeObjectCodec{})
	p.gopls = jsonrpc2.NewConn(ctx, stream, (*goplsSide)(p), jsonrpc2.SetLogger(discardLogger{s}))
	s.extraDiags = p.goplsDiagnostics
	return p, nil
}

// close ends the gopls connection and waits for gopls to exit (killing it
// after 5 s).
func (p *proxy) close() {
	p.gopls.Close()
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
}

// Handle implements jsonrpc2.Handler for the client connection. Messages
// are sent on to gopls in the order they arrive; answers are awaited in
// goroutines so a slow gopls request does not hold up the others.
func (p *proxy) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	<-p.s.ready
	if req.Notif {
		p.notification(ctx, req)
		return
	}
	if req.Method == "workspace/executeCommand" && p.ours(req) {
		if p.s.slow(req) {
			p.s.handleAsync(conn, req)
			return
		}
		res, err := p.s.handle(ctx, conn, req)
		p.reply(ctx, req, res, err)
		return
	}
	w, err := p.gopls.DispatchCall(ctx, req.Method, params(req), jsonrpc2.PickID(req.ID))
	if err != nil {
		p.reply(ctx, req, nil, err)
		return
	}
	var local func() (any, error)
	switch req.Method {
	case "initialize", "shutdown", "textDocument/codeLens", "textDocument/codeAction", "textDocument/hover":
		res, lerr := p.s.handle(ctx, conn, req) // fast: no waiting on anyone
		local = func() (any, error) { return res, lerr }
	}
	go p.answer(ctx, req, w, local)
}

// answer replies to req with gopls's answer, awaited on w, merged with
// local's (fuzzbox's part; nil when it has none). A code lens request that
// gopls has not answered within goplsLensWait is answered with fuzzbox's
// lenses alone: gopls answers none until it has loaded the workspace, which
// took go-ethereum two minutes on a loaded machine, and a fuzz test's lenses
// waited as long. The client is asked for lenses again when gopls answers.
func (p *proxy) answer(ctx context.Context, req *jsonrpc2.Request, w jsonrpc2.Waiter, local func() (any, error)) {
	var raw json.RawMessage
	done := make(chan error, 1)
	go func() { done <- w.Wait(ctx, &raw) }()
	var err error
	select {
	case err = <-done:
	case <-lensWait(req.Method):
		res, lerr := local()
		if lerr == nil {
			res, lerr = merge(req.Method, nil, res)
		}
		p.reply(ctx, req, res, lerr)
		if <-done == nil {
			p.s.refreshLenses()
		}
		return
	}
	if err != nil && local != nil && req.Method != "initialize" && req.Method != "shutdown" {
		// gopls has nothing for the file (a corpus file is not Go): fuzzbox's part alone
		p.s.logf("gopls: %s: %v", req.Method, err)
		raw, err = nil, nil
	}
	if local == nil || err != nil {
		p.reply(ctx, req, raw, err)
		return
	}
	res, lerr := local()
	if lerr != nil {
		p.reply(ctx, req, nil, lerr)
		return
	}
	merged, merr := merge(req.Method, raw, res)
	p.reply(ctx, req, merged, merr)
}

// goplsLensWait is how long a code lens request waits for gopls before the
// proxy answers with fuzzbox's lenses alone (proxy.answer).
const goplsLensWait = time.Second

// lensWait returns a channel that is ready goplsLensWait from now for a code
// lens request, and nil (never ready) for any other.
func lensWait(method string) <-chan time.Time {
	if method != "textDocument/codeLens" {
		return nil
	}
	return time.After(goplsLensWait)
}

// notification forwards a client notification to gopls and handles the
// ones the sidecar follows too.
func (p *proxy) notification(ctx context.Context, req *jsonrpc2.Request) {
	if req.Method == "window/workDoneProgress/cancel" && p.ownsToken(req) {
		p.s.handle(ctx, p.s.conn, req)
		return
	}
	if err := p.gopls.Notify(ctx, req.Method, params(req)); err != nil {
		p.s.logf("forwarding %s to gopls: %v", req.Method, err)
	}
	switch req.Method {
	case "initialized", "exit", "textDocument/didOpen", "textDocument/didChange", "textDocument/didSave", "textDocument/didClose":
		p.s.handle(ctx, p.s.conn, req)
	}
}

// ours reports whether an executeCommand request names a fuzzbox command.
func (p *proxy) ours(req *jsonrpc2.Request) bool {
	var c protocol.ExecuteCommandParams
	return req.Params != nil && json.Unmarshal(*req.Params, &c) == nil && strings.HasPrefix(c.Command, "fuzzbox.")
}

// ownsToken reports whether a progress cancel names a token the sidecar made.
func (p *proxy) ownsToken(req *jsonrpc2.Request) bool {
	var c protocol.WorkDoneProgressCancelParams
	return req.Params != nil && json.Unmarshal(*req.Params, &c) == nil && strings.HasPrefix(string(c.Token), `"fuzzbox-`)
}

// reply answers a client request (Server.reply).
func (p *proxy) reply(ctx context.Context, req *jsonrpc2.Request, result any, err error) {
	p.s.reply(ctx, req, result, err)
}

// goplsSide is the handler of the gopls connection: gopls's diagnostics
// are merged with fuzzbox's, its other notifications and its requests to
// the client are passed on (requests answered when the client answers).
type goplsSide proxy

// Handle implements jsonrpc2.Handler.
func (g *goplsSide) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	p := (*proxy)(g)
	<-p.s.ready
	if req.Method == "textDocument/publishDiagnostics" && req.Params != nil {
		var pd struct {
			URI         protocol.DocumentURI `json:"uri"`
			Diagnostics []json.RawMessage    `json:"diagnostics"`
		}
		if err := json.Unmarshal(*req.Params, &pd); err == nil {
			p.mu.Lock()
			p.goplsDiags[pd.URI] = pd.Diagnostics
			p.mu.Unlock()
			p.s.publish(ctx, pd.URI)
			return
		}
	}
	if req.Notif {
		if err := p.s.conn.Notify(ctx, req.Method, params(req)); err != nil {
			p.s.logf("forwarding %s from gopls: %v", req.Method, err)
		}
		return
	}
	// a request to the client: wait for the answer off this goroutine, which
	// must go on reading gopls's messages
	w, err := p.s.conn.DispatchCall(ctx, req.Method, params(req))
	if err != nil {
		conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()})
		return
	}
	go func() {
		var raw json.RawMessage
		err := w.Wait(ctx, &raw)
		var rerr *jsonrpc2.Error
		switch {
		case errors.As(err, &rerr):
			conn.ReplyWithError(ctx, req.ID, rerr)
		case err != nil:
			conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()})
		case len(raw) == 0:
			conn.Reply(ctx, req.ID, nil)
		default:
			conn.Reply(ctx, req.ID, raw)
		}
	}()
}

// goplsDiagnostics is gopls's last diagnostics of a file, for merging.
func (p *proxy) goplsDiagnostics(uri protocol.DocumentURI) []json.RawMessage {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.goplsDiags[uri]
}

// params is a request's params for forwarding (nil when absent).
func params(req *jsonrpc2.Request) any {
	if req.Params == nil {
		return nil
	}
	return *req.Params
}

// merge combines gopls's answer with fuzzbox's.
func merge(method string, gopls json.RawMessage, ours any) (any, error) {
	switch method {
	case "initialize":
		var res map[string]any
		if err := json.Unmarshal(gopls, &res); err != nil {
			return nil, fmt.Errorf("lsp: gopls's initialize result: %w", err)
		}
		caps, _ := res["capabilities"].(map[string]any)
		if caps == nil {
			caps = map[string]any{}
			res["capabilities"] = caps
		}
		if caps["codeLensProvider"] == nil {
			caps["codeLensProvider"] = map[string]any{}
		}
		if caps["hoverProvider"] == nil {
			caps["hoverProvider"] = true
		}
		if caps["codeActionProvider"] == nil {
			caps["codeActionProvider"] = true
		}
		ecp, _ := caps["executeCommandProvider"].(map[string]any)
		if ecp == nil {
			ecp = map[string]any{}
			caps["executeCommandProvider"] = ecp
		}
		cmds, _ := ecp["commands"].([]any)
		for _, c := range command.Names() {
			cmds = append(cmds, c)
		}
		ecp["commands"] = cmds
		return res, nil
	case "textDocument/codeLens", "textDocument/codeAction":
		var list []json.RawMessage
		if len(gopls) > 0 && string(gopls) != "null" {
			if err := json.Unmarshal(gopls, &list); err != nil {
				return nil, fmt.Errorf("lsp: gopls's %s result: %w", method, err)
			}
		}
		b, _ := json.Marshal(ours)
		var mine []json.RawMessage
		json.Unmarshal(b, &mine)
		return append(list, mine...), nil
	case "textDocument/hover":
		if h, ok := ours.(*protocol.Hover); ok && h != nil {
			return h, nil
		}
	}
	return gopls, nil
}

// pipeRWC joins gopls's stdout and stdin into one stream.
type pipeRWC struct {
	io.ReadCloser
	w io.WriteCloser
}

func (p pipeRWC) Write(b []byte) (int, error) { return p.w.Write(b) }

// Close implements io.Closer: closing gopls's stdin makes it exit.
func (p pipeRWC) Close() error {
	p.w.Close()
	return p.ReadCloser.Close()
}

// logfWriter sends gopls's standard error to the sidecar's own log.
type logfWriter struct{ s *Server }

func (w logfWriter) Write(b []byte) (int, error) {
	w.s.logf("gopls: %s", strings.TrimRight(string(b), "\n"))
	return len(b), nil
}
