package lsp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/lsp"
	"github.com/fuzzbox/fuzzbox/lsp/command"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// goplsVersion is the gopls the proxy tests are pinned to (editors/install.sh
// installs it through the module proxy).
const goplsVersion = "v0.23.0"

// gopls returns the real gopls to test against: $FUZZBOX_GOPLS, else the
// editors' cache, else PATH; the test is skipped when there is none (CI's
// editors/ci.sh sets FUZZBOX_GOPLS, so it never skips there).
func gopls(t *testing.T) string {
	t.Helper()
	path := os.Getenv("FUZZBOX_GOPLS")
	if path == "" {
		for _, p := range []string{"/var/cache/fuzzbox-editors/bin/gopls", "gopls"} {
			if lp, err := exec.LookPath(p); err == nil {
				path = lp
				break
			}
		}
	}
	if path == "" {
		t.Skip("no gopls: run editors/install.sh or set FUZZBOX_GOPLS")
	}
	out, err := exec.Command(path, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s version: %v\n%s", path, err, out)
	}
	if !strings.Contains(string(out), "golang.org/x/tools/gopls "+goplsVersion) {
		if os.Getenv("FUZZBOX_GOPLS") != "" {
			t.Fatalf("FUZZBOX_GOPLS=%s is not gopls %s:\n%s", path, goplsVersion, out)
		}
		t.Skipf("%s is not gopls %s (run editors/install.sh):\n%s", path, goplsVersion, out)
	}
	return path
}

// TestProxy runs the sidecar in front of the real gopls: gopls's hover and
// completion answer through it, code lenses and commands of both servers are
// merged, and each file's diagnostics are gopls's plus fuzzvet's.
func TestProxy(t *testing.T) {
	root := fixture(t)
	bad := filepath.Join(root, "bad_test.go")
	os.WriteFile(bad, []byte("package planted\n\nimport \"testing\"\n\nfunc FuzzBad(f *testing.F) {\n\tf.Add(5)\n\tf.Fuzz(func(t *testing.T, n uint8) { t.Logf(\"%d\", \"x\") })\n}\n"), 0o644)
	c := start(t, root, lsp.Options{Gopls: gopls(t)})

	var init protocol.InitializeResult
	json.Unmarshal(c.init, &init)
	cmds := strings.Join(init.Capabilities.ExecuteCommandProvider.Commands, " ")
	if !strings.Contains(cmds, command.Fuzz) || !strings.Contains(cmds, "gopls.") {
		t.Errorf("merged commands lack fuzzbox's or gopls's: %s", cmds)
	}
	if !strings.Contains(string(c.init), `"completionProvider"`) {
		t.Errorf("initialize result is not gopls's: %s", c.init)
	}

	test := filepath.Join(root, "parse_test.go")
	c.open(test)
	var hover protocol.Hover
	c.call("textDocument/hover", protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri(test)},
		Position: protocol.Position{Line: 7, Character: 3}}, &hover)
	if !strings.Contains(hover.Contents.Value, "func Parse(s string) int") {
		t.Errorf("gopls's hover on Parse: %q", hover.Contents.Value)
	}
	var completion struct {
		Items []struct{ Label string } `json:"items"`
	}
	c.call("textDocument/completion", protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri(test)},
		Position: protocol.Position{Line: 7, Character: 5}}, &completion)
	found := false
	for _, it := range completion.Items {
		found = found || it.Label == "Parse"
	}
	if !found {
		t.Errorf("gopls's completion at Par|se has no Parse: %+v", completion.Items)
	}
	if got := titles(c.lenses(test)); !strings.Contains(strings.Join(got, "|"), "fuzz|run seeds") {
		t.Errorf("lenses through the proxy: %q", got)
	}

	entry := filepath.Join(root, "testdata/fuzz/FuzzParse/ok1")
	c.open(entry)
	if got := titles(c.lenses(entry)); strings.Join(got, "|") != `rerun this input|values: "fine"` {
		t.Errorf("corpus file lenses through the proxy: %q", got)
	}
	var eh protocol.Hover
	c.call("textDocument/hover", protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri(entry)},
		Position: protocol.Position{Line: 1, Character: 2}}, &eh)
	if !strings.Contains(eh.Contents.Value, "value 1 of 1") {
		t.Errorf("corpus file hover through the proxy: %q", eh.Contents.Value)
	}

	from := c.mark()
	c.open(bad)
	for {
		m, next := c.waitFor(from, "textDocument/publishDiagnostics", "bad_test.go")
		from = next
		s := string(*m.Params)
		if strings.Contains(s, `"source":"fuzzvet"`) && strings.Contains(s, `"source":"printf"`) {
			break
		}
	}

	os.Remove(bad) // go test's vet would refuse to build the package with it
	from = c.mark()
	if _, err := c.execute(command.RunSeeds, command.FuzzArgs{URI: string(uri(test)), Name: "FuzzParse"}); err != nil {
		t.Fatal(err)
	}
	c.waitFor(from, "window/showMessage", "FuzzParse: pass")
	c.stop()
	if out, err := exec.Command("pgrep", "-P", strconv.Itoa(os.Getpid()), "gopls").Output(); err == nil {
		t.Errorf("gopls still running after exit: %s", out)
	}
}

// TestProxyGoplsDies: when gopls dies under the proxy, the session ends
// with a message, so that the editor starts the server again; it went on
// answering every request, fuzzbox's lenses too, with "connection is
// closed".
func TestProxyGoplsDies(t *testing.T) {
	root := fixture(t)
	c := start(t, root, lsp.Options{Gopls: gopls(t)})
	out, err := exec.Command("pgrep", "-P", strconv.Itoa(os.Getpid()), "gopls").Output()
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || pid <= 0 {
		t.Fatalf("no gopls under the proxy: %q, %v", out, err)
	}
	from := c.mark()
	syscall.Kill(pid, syscall.SIGKILL)
	c.waitFor(from, "window/showMessage", "gopls exited")
	select {
	case err := <-c.done:
		if err == nil || !strings.Contains(err.Error(), "gopls exited") {
			t.Errorf("Serve returned %v, want an error saying gopls exited", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the session goes on without gopls")
	}
}

// TestProxyLensesBeforeGopls: while gopls is still loading the workspace
// (its go list held here until the test lets it go), a code lens request
// is answered with fuzzbox's lenses, not held until gopls answers (on
// go-ethereum: two minutes); once gopls has answered, the client is asked
// to refresh its lenses.
func TestProxyLensesBeforeGopls(t *testing.T) {
	root := fixture(t)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin, gate := t.TempDir(), filepath.Join(t.TempDir(), "open")
	wrapper := "#!/bin/sh\nif [ \"$1\" = list ]; then\n\twhile [ ! -e " + gate + " ]; do sleep 0.05; done\nfi\nexec " + goCmd + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	c := start(t, root, lsp.Options{Gopls: gopls(t)})
	test := filepath.Join(root, "parse_test.go")
	c.open(test)

	got := make(chan []protocol.CodeLens, 1)
	go func() { got <- c.lenses(test) }()
	select {
	case lenses := <-got:
		if !strings.Contains(strings.Join(titles(lenses), "|"), "fuzz|run seeds") {
			t.Errorf("lenses while gopls loads: %q", titles(lenses))
		}
	case <-time.After(time.Minute):
		t.Fatal("no code lenses while gopls loads the workspace: the proxy waits for gopls")
	}
	from := c.mark()
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.waitFor(from, "workspace/codeLens/refresh", "")
	c.stop()
}
