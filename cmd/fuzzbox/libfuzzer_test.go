package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// pairModule is a module whose fuzz test has a multi-argument planted bug.
var pairModule = map[string]string{
	"go.mod": "module example.com/pair\n\ngo 1.21\n",
	"pair_test.go": `package pair

import "testing"

func FuzzPair(f *testing.F) {
	f.Add("key", 7, []byte("value"))
	f.Fuzz(func(t *testing.T, s string, n int, b []byte) {
		if s == "boom" && n == 3 && len(b) == 2 {
			t.Fatalf("planted: %q %d %q", s, n, b)
		}
	})
}

func FuzzNamed(f *testing.F) { f.Fuzz(check) }

func check(t *testing.T, a, b uint16, ok bool, r rune, f float64) {}

func FuzzHelper(f *testing.F) { fuzzWith(f) }

func fuzzWith(f *testing.F) {}
`,
}

func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestImportFromLibFuzzerReplays: a libFuzzer crash input for a
// multi-argument fuzz test becomes a v1 entry that stock go test replays
// with the same failure.
func TestImportFromLibFuzzerReplays(t *testing.T) {
	dir := writeModule(t, pairModule)
	raw, err := corpus.EncodeLibFuzzer([]any{"boom", 3, []byte("ab")})
	if err != nil {
		t.Fatal(err)
	}
	crash := filepath.Join(t.TempDir(), "crash-1")
	if err := os.WriteFile(crash, raw, 0o666); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCorpusWith(t, "", "import", "-from-libfuzzer", "-fuzz=FuzzPair", "-pkg", dir, crash)
	if code != exitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	_, run, ok := strings.Cut(stdout, "replay: go test -run=")
	if !ok {
		t.Fatalf("import printed no replay command: %q", stdout)
	}
	run = strings.TrimSuffix(strings.TrimSpace(run), ")")
	cmd := exec.Command("go", "test", "-run="+run, ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), `planted: "boom" 3 "ab"`) {
		t.Fatalf("stock go test -run=%s: err %v, want the planted failure:\n%s", run, err, out)
	}
	// Into another directory, which go test -run does not read: no
	// replay command that would replay nothing.
	code, stdout, stderr = runCorpusWith(t, "", "import", "-from-libfuzzer", "-fuzz=FuzzPair", "-pkg", dir, "-o", t.TempDir(), crash)
	if code != exitOK || strings.Contains(stdout, "replay:") {
		t.Errorf("import -o elsewhere: exit %d, %q, %s; want no replay command", code, stdout, stderr)
	}
}

// TestExportImportLibFuzzerRoundTrip: export -to-libfuzzer then import
// -from-libfuzzer gives back the same v1 file, byte for byte.
func TestExportImportLibFuzzerRoundTrip(t *testing.T) {
	src := t.TempDir()
	entry := "go test fuzz v1\nstring(\"\\x00é\")\nuint16(65535)\n[]byte(\"x\")\nfloat32(-0)\nbool(true)\n"
	if err := os.WriteFile(filepath.Join(src, "e1"), []byte(entry), 0o666); err != nil {
		t.Fatal(err)
	}
	lf := t.TempDir()
	if code, _, stderr := runCorpusWith(t, "", "export", "-to-libfuzzer", "-o", lf, src); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	back := t.TempDir()
	code, _, stderr := runCorpusWith(t, "", "import", "-from-libfuzzer", "-fuzz=FuzzX", "-types", "string,uint16,[]byte,float32,bool", "-o", back, filepath.Join(lf, "e1"))
	if code != exitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(back, corpus.Name([]byte(entry))))
	if err != nil || string(got) != entry {
		t.Errorf("round trip: %q, %v; want %q", got, err, entry)
	}
}
