package lsp_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/lsp"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// TestTypedValues: a typed fuzz test's corpus entry (one []byte) shows its
// arguments as Go syntax in its values lens and hover, once the test
// binary has answered in the background; until then, its bytes.
func TestTypedValues(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	entry := filepath.Join(root, "testdata", "fuzz", "FuzzCheck", "one")
	// testdata/typedmod: FuzzCheck(Config, int8), its entry one is
	// typed.Encode(Config{Name: "admin", Magic: 0x5eed}, int8(-2)) (docs/typed.md);
	// go.mod points at this repository (the editor tests write the same).
	if err := os.CopyFS(root, os.DirFS("testdata/typedmod")); err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/typedmod\n\ngo 1.26\n\nrequire github.com/fuzzbox/fuzzbox v0.0.0\n\nreplace github.com/fuzzbox/fuzzbox => " + repo + "\n"
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	c := start(t, root, lsp.Options{})
	from := c.mark()
	raw := []string{"rerun this input", `values: []byte("\x01\x05admin\xed^\x00\x00\xfe")`}
	if got := titles(c.lenses(entry)); !reflect.DeepEqual(got, raw) {
		t.Errorf("lenses before the answer: %q, want %q", got, raw)
	}
	c.waitFor(from, "workspace/codeLens/refresh", "")
	want := []string{"rerun this input", `values: Config{Name: "admin", Magic: 0x5eed}, int8(-2)`}
	if got := titles(c.lenses(entry)); !reflect.DeepEqual(got, want) {
		t.Errorf("lenses after the answer: %q, want %q", got, want)
	}
	var h protocol.Hover
	c.call("textDocument/hover", protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri(entry)},
		Position: protocol.Position{Line: 0, Character: 2}}, &h)
	if !strings.Contains(h.Contents.Value, "typed arguments (package typed):\n\n1. `Config{Name: \"admin\", Magic: 0x5eed}`\n2. `int8(-2)`") {
		t.Errorf("hover: %q", h.Contents.Value)
	}
	c.stop()
}
