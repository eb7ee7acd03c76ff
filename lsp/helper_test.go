package lsp_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/lsp"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// A client is the test's side of a session over net.Pipe: a jsonrpc2
// connection that records the server's notifications and requests and
// answers the requests as VS Code would.
type client struct {
	t    *testing.T
	conn *jsonrpc2.Conn
	root string          // the workspace folder
	init json.RawMessage // the initialize result
	done chan error

	mu   sync.Mutex
	msgs []*jsonrpc2.Request // notifications and requests from the server, in order
	wake chan struct{}
}

// fixture copies lsp/testdata/planted to a temporary workspace.
func fixture(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(root, os.DirFS("testdata/planted")); err != nil {
		t.Fatal(err)
	}
	return root
}

// start serves a session on net.Pipe and initializes it with root as the workspace.
func start(t *testing.T, root string, opts lsp.Options) *client {
	t.Helper()
	return startOpts(t, root, opts, nil)
}

// startOpts is start with the client's initializationOptions.
func startOpts(t *testing.T, root string, opts lsp.Options, initOpts json.RawMessage) *client {
	t.Helper()
	return startCaps(t, root, opts, initOpts, json.RawMessage(`{"window":{"workDoneProgress":true,"showDocument":{"support":true}}}`))
}

// startCaps is startOpts with the client's capabilities.
func startCaps(t *testing.T, root string, opts lsp.Options, initOpts, caps json.RawMessage) *client {
	t.Helper()
	a, b := net.Pipe()
	c := &client{t: t, root: root, done: make(chan error, 1), wake: make(chan struct{}, 1)}
	opts.Logf = t.Logf
	srv := lsp.New(opts)
	go func() { c.done <- srv.Serve(context.Background(), a) }()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.AsyncHandler(jsonrpc2.HandlerWithError(c.handle))) // async: net.Pipe has no buffer, so a client answering in its read loop could deadlock with a server writing in its own
	t.Cleanup(func() { c.conn.Close() })
	c.call("initialize", protocol.InitializeParams{RootURI: uri(root), Capabilities: caps, InitializationOptions: initOpts,
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: uri(root), Name: "ws"}}}, &c.init)
	c.notify("initialized", struct{}{})
	return c
}

func (c *client) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	c.mu.Lock()
	c.msgs = append(c.msgs, req)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	switch req.Method {
	case "window/showDocument":
		return protocol.ShowDocumentResult{Success: true}, nil
	case "workspace/configuration": // gopls asks; answer one empty object per item
		var p struct{ Items []json.RawMessage }
		json.Unmarshal(*req.Params, &p)
		res := make([]struct{}, len(p.Items))
		return res, nil
	}
	return nil, nil
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	if err := c.callErr(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) callErr(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	return c.conn.Call(ctx, method, params, result)
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// waitFor returns the first message from the server after index from whose
// method is method and whose params contain sub; it fails the test after 5 minutes.
func (c *client) waitFor(from int, method, sub string) (*jsonrpc2.Request, int) {
	c.t.Helper()
	deadline := time.After(5 * time.Minute) // generous: the first fuzzing build of a cold cache builds an instrumented standard library
	for {
		c.mu.Lock()
		for i := from; i < len(c.msgs); i++ {
			m := c.msgs[i]
			if m.Method == method && (sub == "" || m.Params != nil && strings.Contains(string(*m.Params), sub)) {
				c.mu.Unlock()
				return m, i + 1
			}
		}
		c.mu.Unlock()
		select {
		case <-c.wake:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no %s containing %q from the server; got:\n%s", method, sub, c.dump())
		}
	}
}

func (c *client) mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.msgs)
}

func (c *client) dump() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, m := range c.msgs {
		p := ""
		if m.Params != nil {
			p = string(*m.Params)
		}
		b.WriteString(m.Method + " " + p + "\n")
	}
	return b.String()
}

// stop sends shutdown and exit and waits for Serve to return nil.
func (c *client) stop() {
	c.t.Helper()
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Errorf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		c.t.Fatal("Serve did not return after exit")
	}
}

func (c *client) open(path string) {
	c.t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri(path), LanguageID: "go", Version: 1, Text: string(text)}})
}

func (c *client) lenses(path string) []protocol.CodeLens {
	c.t.Helper()
	var lenses []protocol.CodeLens
	c.call("textDocument/codeLens", protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri(path)}}, &lenses)
	return lenses
}

func titles(lenses []protocol.CodeLens) []string {
	var out []string
	for _, l := range lenses {
		out = append(out, l.Command.Title)
	}
	return out
}

func uri(path string) protocol.DocumentURI {
	return protocol.DocumentURI("file://" + filepath.ToSlash(path))
}

// execute runs a workspace command with one argument.
func (c *client) execute(name string, arg any) (json.RawMessage, error) {
	b, _ := json.Marshal(arg)
	var res json.RawMessage
	err := c.callErr("workspace/executeCommand", protocol.ExecuteCommandParams{Command: name, Arguments: []json.RawMessage{b}}, &res)
	return res, err
}
