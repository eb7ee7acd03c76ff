package fuzzvet_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzvet"
)

// TestCheck: Check reports each diagnostic once, sorted, as
// "file:line:col: message", and fails on a package that does not load.
func TestCheck(t *testing.T) {
	if out, err := exec.Command("go", "env", "GOVERSION").Output(); err != nil || !strings.HasPrefix(string(out), "go1.26") {
		t.Skipf("fuzzvet reads Go 1.26's export data; the go command is %s", out)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":    "module example.com/p\n\ngo 1.26\n",
		"p.go":      "package p\n",
		"p_test.go": "package p\n\nimport \"testing\"\n\nfunc FuzzP(f *testing.F) {\n\tf.Add(5)\n\tf.Fuzz(func(t *testing.T, n uint8) {})\n}\n",
		"q_test.go": "package p_test\n\nimport \"testing\"\n\nfunc FuzzQ(f *testing.F) {\n\tf.Add(true)\n\tf.Fuzz(func(t *testing.T, s string) {})\n}\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	got, err := fuzzvet.Check(dir, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "p_test.go") + ":6:8: untyped constant 5 in f.Add has default type int, but fuzz argument n is uint8",
		filepath.Join(dir, "q_test.go") + ":6:8: "}
	if len(got) != len(want) {
		t.Fatalf("Check = %q, want %d lines starting %q", got, len(want), want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("line %d = %q, want it to start with %q", i, got[i], want[i])
		}
	}
	os.WriteFile(filepath.Join(dir, "p.go"), []byte("package p\nfunc ("), 0o666)
	if _, err := fuzzvet.Check(dir, []string{"./..."}); err == nil || !strings.HasPrefix(err.Error(), "loading packages: ") {
		t.Errorf("Check of a broken package: %v, want a loading error", err)
	}
}
