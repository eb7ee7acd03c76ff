package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/lsp"
	"github.com/fuzzbox/fuzzbox/lsp/command"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

func TestLifecycle(t *testing.T) {
	c := start(t, fixture(t), lsp.Options{})
	err := c.callErr("textDocument/definition", struct{}{}, nil)
	var rerr *jsonrpc2.Error
	if !errors.As(err, &rerr) || rerr.Code != jsonrpc2.CodeMethodNotFound {
		t.Errorf("unknown method: got %v, want MethodNotFound", err)
	}
	if err := c.callErr("initialize", protocol.InitializeParams{}, nil); err == nil {
		t.Error("second initialize accepted")
	}
	c.stop()
}

func TestNotInitialized(t *testing.T) {
	a, b := net.Pipe()
	go lsp.New(lsp.Options{}).Serve(context.Background(), a)
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) { return nil, nil }))
	defer conn.Close()
	err := conn.Call(context.Background(), "textDocument/codeLens", struct{}{}, nil)
	var rerr *jsonrpc2.Error
	if !errors.As(err, &rerr) || rerr.Code != protocol.CodeServerNotInitialized {
		t.Errorf("request before initialize: got %v, want ServerNotInitialized", err)
	}
}

// TestBadInput writes raw frames: malformed JSON and messages that are not
// JSON-RPC get error responses, and the server keeps answering.
func TestBadInput(t *testing.T) {
	a, b := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- lsp.New(lsp.Options{}).Serve(context.Background(), a) }()
	r := bufio.NewReader(b)
	send := func(body string) {
		fmt.Fprintf(b, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	recv := func() map[string]any {
		t.Helper()
		var n int
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if line == "\r\n" {
				break
			}
			fmt.Sscanf(line, "Content-Length: %d", &n)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("bad response %q: %v", body, err)
		}
		return m
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{`)
	if m := recv(); code(m) != protocol.CodeParseError || m["id"] != nil {
		t.Errorf("malformed JSON: got %v, want a parse error with id null", m)
	}
	send(`{"jsonrpc":"2.0","id":7}`)
	if m := recv(); code(m) != protocol.CodeInvalidRequest || m["id"] != float64(7) {
		t.Errorf("message without method: got %v, want invalid request for id 7", m)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"rootUri":"file:///tmp"}}`)
	if m := recv(); m["result"] == nil {
		t.Errorf("initialize after bad input: got %v", m)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"textDocument/codeLens","params":["not","an","object"]}`)
	if m := recv(); code(m) != protocol.CodeInvalidParams {
		t.Errorf("wrong params: got %v, want invalid params", m)
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"fuzzbox/nothing","params":{}}`)
	if m := recv(); code(m) != protocol.CodeMethodNotFound {
		t.Errorf("unknown method: got %v, want method not found", m)
	}
	send(`{"jsonrpc":"2.0","id":5,"method":"shutdown"}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestCodeLenses(t *testing.T) {
	root := fixture(t)
	c := start(t, root, lsp.Options{})
	test := filepath.Join(root, "parse_test.go")
	c.open(test)
	lenses := c.lenses(test)
	if got, want := titles(lenses), []string{"fuzz", "run seeds"}; !reflect.DeepEqual(got, want) {
		t.Errorf("lenses of parse_test.go: %q, want %q", got, want)
	}
	if len(lenses) > 0 {
		if l := lenses[0]; l.Range.Start.Line != 4 || l.Command.Command != command.Fuzz ||
			string(l.Command.Arguments[0]) != fmt.Sprintf(`{"uri":%q,"name":"FuzzParse"}`, uri(test)) {
			t.Errorf("fuzz lens: %+v %s", l, l.Command.Arguments)
		}
	}
	entry := filepath.Join(root, "testdata/fuzz/FuzzParse/ok1")
	if got, want := titles(c.lenses(entry)), []string{"rerun this input", `values: "fine"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("lenses of a corpus file: %q, want %q", got, want)
	}
	if got := c.lenses(filepath.Join(root, "parse.go")); len(got) != 0 {
		t.Errorf("lenses of a non-test file: %v", titles(got))
	}
	c.stop()
}

func TestHover(t *testing.T) {
	root := fixture(t)
	c := start(t, root, lsp.Options{})
	entry := filepath.Join(root, "testdata/fuzz/FuzzParse/two")
	os.WriteFile(entry, []byte("go test fuzz v1\n[]byte(\"a\\x00\")\nint(-3)\n"), 0o644)
	for line, want := range map[uint32]string{
		0: "corpus entry with 2 value(s):\n\n1. `[]byte`, 2 bytes: `\"a\\x00\"` (hex 6100)\n2. `int`: `int(-3)`\n",
		1: "value 1 of 2: `[]byte`, 2 bytes: `\"a\\x00\"` (hex 6100)",
		2: "value 2 of 2: `int`: `int(-3)`",
	} {
		var h protocol.Hover
		c.call("textDocument/hover", protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri(entry)},
			Position: protocol.Position{Line: line, Character: 2}}, &h)
		if h.Contents.Value != want {
			t.Errorf("hover on line %d: %q, want %q", line, h.Contents.Value, want)
		}
	}
	c.stop()
}

// TestReplayCommands runs the seeds (finding a planted crash), opens its
// reproducer and reruns single entries, through the real go test.
func TestReplayCommands(t *testing.T) {
	root := fixture(t)
	crash := filepath.Join(root, "testdata/fuzz/FuzzParse/crash1")
	os.WriteFile(crash, []byte("go test fuzz v1\nstring(\"FUZZ!\")\n"), 0o644)
	c := start(t, root, lsp.Options{})
	test := filepath.Join(root, "parse_test.go")
	args := command.FuzzArgs{URI: string(uri(test)), Name: "FuzzParse"}

	from := c.mark()
	res, err := c.execute(command.RunSeeds, args)
	if err != nil || string(res) != `{"started":"FuzzParse"}` {
		t.Fatalf("run seeds: %s, %v", res, err)
	}
	if _, err := c.execute(command.RunSeeds, args); err == nil || !strings.Contains(err.Error(), "already running") {
		t.Errorf("second run of the same test: %v, want already running", err)
	}
	_, next := c.waitFor(from, "$/progress", `"kind":"begin"`)
	c.waitFor(next, "$/progress", `"kind":"end"`)
	m, _ := c.waitFor(from, "window/showMessage", "FuzzParse/crash1")
	if !strings.Contains(string(*m.Params), "panic failure: runtime error: index out of range") {
		t.Errorf("showMessage: %s", *m.Params)
	}
	d, _ := c.waitFor(from, "textDocument/publishDiagnostics", "parse.go")
	var pd protocol.PublishDiagnosticsParams
	json.Unmarshal(*d.Params, &pd)
	if len(pd.Diagnostics) != 1 || pd.Diagnostics[0].Range.Start.Line != 8 || pd.Diagnostics[0].Range.Start.Character != 2 ||
		!strings.Contains(pd.Diagnostics[0].Message, "reproducer: "+crash) {
		t.Errorf("failure diagnostic: %+v, want parse.go line 9 col 3 naming %s", pd, crash)
	}
	if got := titles(c.lenses(test)); len(got) != 3 || !strings.HasPrefix(got[2], "open reproducer (panic: runtime error: index out of range") {
		t.Errorf("lenses after the failure: %q", got)
	}

	from = c.mark()
	if res, err := c.execute(command.OpenReproducer, args); err != nil || !strings.Contains(string(res), crash) {
		t.Errorf("open reproducer: %s, %v", res, err)
	}
	c.waitFor(from, "window/showDocument", string(uri(crash)))

	from = c.mark()
	if _, err := c.execute(command.RerunEntry, command.EntryArgs{URI: string(uri(filepath.Join(root, "testdata/fuzz/FuzzParse/ok1")))}); err != nil {
		t.Fatal(err)
	}
	c.waitFor(from, "window/showMessage", "FuzzParse/ok1: pass")

	// the reproducer passes once the bug is fixed: the failure, its lens and diagnostic go
	os.WriteFile(crash, []byte("go test fuzz v1\nstring(\"FIXED\")\n"), 0o644)
	from = c.mark()
	if _, err := c.execute(command.RerunEntry, command.EntryArgs{URI: string(uri(crash))}); err != nil {
		t.Fatal(err)
	}
	c.waitFor(from, "window/showMessage", "FuzzParse/crash1: pass")
	c.waitFor(from, "textDocument/publishDiagnostics", `"diagnostics":[]`)
	if got := titles(c.lenses(test)); len(got) != 2 {
		t.Errorf("lenses after the fix: %q", got)
	}

	// a failing f.Add seed has no file to open: its lens runs the seeds
	src, _ := os.ReadFile(test)
	os.WriteFile(test, []byte(strings.Replace(string(src), "\tf.Fuzz(", "\tf.Add(\"FUZZ!\")\n\tf.Fuzz(", 1)), 0o644)
	from = c.mark()
	if _, err := c.execute(command.RunSeeds, args); err != nil {
		t.Fatal(err)
	}
	c.waitFor(from, "window/showMessage", "FuzzParse/seed#1: panic failure")
	if got := titles(c.lenses(test)); len(got) != 3 || !strings.HasPrefix(got[2], "seed failed (panic: runtime error: index out of range") || !strings.HasSuffix(got[2], "run seeds") {
		t.Errorf("lenses after the seed's failure: %q", got)
	}
	c.stop()
}

// TestOutsideWorkspace: commands naming files outside the workspace are refused.
func TestOutsideWorkspace(t *testing.T) {
	root := fixture(t)
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(outside, "testdata/fuzz/FuzzParse"), 0o755)
	os.WriteFile(filepath.Join(outside, "testdata/fuzz/FuzzParse/x"), []byte("go test fuzz v1\nstring(\"a\")\n"), 0o644)
	os.Symlink(filepath.Join(outside, "testdata"), filepath.Join(root, "linked"))
	c := start(t, root, lsp.Options{})
	for _, u := range []string{
		"file:///etc/passwd",
		string(uri(root)) + "/../../etc/passwd",
		string(uri(root)) + "/linked/fuzz/FuzzParse/x",
		"http://example.com/x",
	} {
		_, err := c.execute(command.RerunEntry, command.EntryArgs{URI: u})
		var rerr *jsonrpc2.Error
		if !errors.As(err, &rerr) || rerr.Code != jsonrpc2.CodeInvalidParams {
			t.Errorf("rerun %s: got %v, want refused", u, err)
		}
		_, err = c.execute(command.RunSeeds, command.FuzzArgs{URI: u, Name: "FuzzParse"})
		if !errors.As(err, &rerr) || rerr.Code != jsonrpc2.CodeInvalidParams {
			t.Errorf("run seeds %s: got %v, want refused", u, err)
		}
	}
	c.stop()
}

// TestFuzzvet: diagnostics at the exact position and the fix as a code action.
func TestFuzzvet(t *testing.T) {
	root := fixture(t)
	bad := filepath.Join(root, "bad_test.go")
	os.WriteFile(bad, []byte("package planted\n\nimport \"testing\"\n\nfunc FuzzBad(f *testing.F) {\n\tf.Add(5)\n\tf.Fuzz(func(t *testing.T, n uint8) {})\n}\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "testdata/fuzz/FuzzBad"), 0o755)
	entry := filepath.Join(root, "testdata/fuzz/FuzzBad/wrong")
	os.WriteFile(entry, []byte("go test fuzz v1\nstring(\"x\")\n"), 0o644)
	c := start(t, root, lsp.Options{})
	from := c.mark()
	c.open(bad)
	m, _ := c.waitFor(from, "textDocument/publishDiagnostics", "bad_test.go")
	var pd protocol.PublishDiagnosticsParams
	json.Unmarshal(*m.Params, &pd)
	if len(pd.Diagnostics) != 1 {
		t.Fatalf("diagnostics of bad_test.go: %+v", pd)
	}
	d := pd.Diagnostics[0]
	want := protocol.Range{Start: protocol.Position{Line: 5, Character: 7}, End: protocol.Position{Line: 5, Character: 8}}
	if d.Range != want || d.Source != "fuzzvet" || d.Code != "fuzzadd" || !strings.Contains(d.Message, "untyped constant 5") {
		t.Errorf("diagnostic %+v, want fuzzadd at %v", d, want)
	}
	m, _ = c.waitFor(from, "textDocument/publishDiagnostics", "FuzzBad/wrong")
	json.Unmarshal(*m.Params, &pd)
	if len(pd.Diagnostics) != 1 || pd.Diagnostics[0].Range != (protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1, Character: 11}}) ||
		!strings.Contains(pd.Diagnostics[0].Message, "mismatched types") {
		t.Errorf("corpus file diagnostic: %+v", pd)
	}
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri(bad)},
		Range: want, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}}, &actions)
	if len(actions) != 1 || actions[0].Edit == nil || len(actions[0].Edit.Changes[uri(bad)]) != 1 ||
		actions[0].Edit.Changes[uri(bad)][0].NewText != "uint8(5)" {
		t.Errorf("code actions: %+v", actions)
	}

	// the fix applied and saved: the diagnostic goes
	fixed := "package planted\n\nimport \"testing\"\n\nfunc FuzzBad(f *testing.F) {\n\tf.Add(uint8(5))\n\tf.Fuzz(func(t *testing.T, n uint8) {})\n}\n"
	os.WriteFile(bad, []byte(fixed), 0o644)
	from = c.mark()
	c.notify("textDocument/didChange", protocol.DidChangeTextDocumentParams{TextDocument: protocol.VersionedTextDocumentIdentifier{URI: uri(bad), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: fixed}}})
	c.notify("textDocument/didSave", protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri(bad)}})
	c.waitFor(from, "textDocument/publishDiagnostics", fmt.Sprintf(`"diagnostics":[],"uri":%q`, uri(bad)))
	c.stop()
}

// TestShutdownStopsRuns: shutdown cancels a run in flight and waits for it.
func TestShutdownStopsRuns(t *testing.T) {
	root := fixture(t)
	os.WriteFile(filepath.Join(root, "slow_test.go"), []byte("package planted\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\n"+
		"func FuzzSlow(f *testing.F) {\n\tf.Add(1)\n\tf.Fuzz(func(t *testing.T, n int) { time.Sleep(time.Hour) })\n}\n"), 0o644)
	c := start(t, root, lsp.Options{})
	from := c.mark()
	if _, err := c.execute(command.RunSeeds, command.FuzzArgs{URI: string(uri(filepath.Join(root, "slow_test.go"))), Name: "FuzzSlow"}); err != nil {
		t.Fatal(err)
	}
	c.waitFor(from, "$/progress", `"kind":"begin"`)
	time.Sleep(2 * time.Second) // let go test start the test binary
	t0 := time.Now()
	c.stop()
	if d := time.Since(t0); d > 15*time.Second {
		t.Errorf("shutdown took %v", d)
	}
	if ps := descendants(); len(ps) > 0 {
		t.Errorf("processes left behind: %q", ps)
	}
}

// TestIncrementalChanges: a client that sends incremental changes (any in
// proxy mode, where gopls's text synchronization is announced) moves the
// lenses with the edits: they were ignored, and the lenses stayed on the
// lines of the text as opened.
func TestIncrementalChanges(t *testing.T) {
	root := fixture(t)
	c := start(t, root, lsp.Options{})
	test := filepath.Join(root, "parse_test.go")
	c.open(test)
	before := c.lenses(test)
	if len(before) == 0 {
		t.Fatal("no lenses")
	}
	at := protocol.Position{Line: 2} // three lines inserted before the fuzz test, then "é😀" typed and one character of it deleted
	c.notify("textDocument/didChange", protocol.DidChangeTextDocumentParams{TextDocument: protocol.VersionedTextDocumentIdentifier{URI: uri(test), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{
			{Range: &protocol.Range{Start: at, End: at}, Text: "// one\n// two\n// é😀\n"},
			{Range: &protocol.Range{Start: protocol.Position{Line: 4, Character: 4}, End: protocol.Position{Line: 4, Character: 6}}, Text: ""},
		}})
	after := c.lenses(test)
	if len(after) != len(before) || after[0].Range.Start.Line != before[0].Range.Start.Line+3 {
		t.Errorf("lenses after three lines were inserted above: %+v, before %+v", after, before)
	}
}

// TestOpenReproducerWithoutShowDocument: a client without window/showDocument
// (Neovim 0.7) gets the reproducer's path as a message from "open reproducer".
func TestOpenReproducerWithoutShowDocument(t *testing.T) {
	root := fixture(t)
	crash := filepath.Join(root, "testdata/fuzz/FuzzParse/crash1")
	os.WriteFile(crash, []byte("go test fuzz v1\nstring(\"FUZZ!\")\n"), 0o644)
	c := startCaps(t, root, lsp.Options{}, nil, json.RawMessage(`{"window":{"workDoneProgress":true}}`))
	args := command.FuzzArgs{URI: string(uri(filepath.Join(root, "parse_test.go"))), Name: "FuzzParse"}
	from := c.mark()
	if _, err := c.execute(command.RunSeeds, args); err != nil {
		t.Fatal(err)
	}
	c.waitFor(from, "window/showMessage", "FuzzParse/crash1: panic failure")
	from = c.mark()
	if res, err := c.execute(command.OpenReproducer, args); err != nil || !strings.Contains(string(res), crash) {
		t.Errorf("open reproducer: %s, %v", res, err)
	}
	c.waitFor(from, "window/showMessage", "FuzzParse: reproducer "+crash)
	c.mu.Lock()
	for _, m := range c.msgs[from:] {
		if m.Method == "window/showDocument" {
			t.Errorf("window/showDocument sent to a client without it: %s", *m.Params)
		}
	}
	c.mu.Unlock()
	c.stop()
}
