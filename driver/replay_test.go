package driver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/driver"
)

// replayModule writes a module with one fuzz test and three seed files: one
// that panics in a non-test file, one that fails with t.Errorf, one that passes.
func replayModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/rp\n\ngo 1.26\n",
		"x.go":   "package rp\n\nfunc Parse(s string) int {\n\tif s == \"boom\" {\n\t\tpanic(\"boom: bad input\")\n\t}\n\treturn len(s)\n}\n",
		"x_test.go": "package rp\n\nimport \"testing\"\n\nfunc FuzzX(f *testing.F) {\n\tf.Add(\"ok\")\n" +
			"\tf.Fuzz(func(t *testing.T, s string) {\n\t\tif s == \"fail\" {\n\t\t\tt.Errorf(\"got fail input %q\", s)\n\t\t}\n\t\tParse(s)\n\t})\n}\n",
		"testdata/fuzz/FuzzX/crash1": "go test fuzz v1\nstring(\"boom\")\n",
		"testdata/fuzz/FuzzX/fail1":  "go test fuzz v1\nstring(\"fail\")\n",
		"testdata/fuzz/FuzzX/fine":   "go test fuzz v1\nstring(\"fine\")\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReplay(t *testing.T) {
	dir := replayModule(t)
	tests := []struct {
		entry     string
		passed    bool
		kind      string
		msg       string
		frameFile string
		frameLine int
	}{
		{entry: "crash1", kind: "panic", msg: "boom: bad input", frameFile: "x.go", frameLine: 5},
		{entry: "fail1", kind: "fail", msg: `got fail input "fail"`, frameFile: "x_test.go", frameLine: 9},
		{entry: "fine", passed: true},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			res, err := driver.Replay(context.Background(), driver.Config{}, driver.Target{Dir: dir, Name: "FuzzX"}, tt.entry)
			if err != nil {
				t.Fatal(err)
			}
			if res.Passed != tt.passed || res.Kind != tt.kind || res.Message != tt.msg {
				t.Errorf("got passed=%v kind=%q msg=%q, want %v %q %q\n%s", res.Passed, res.Kind, res.Message, tt.passed, tt.kind, tt.msg, res.Output)
			}
			if tt.passed {
				return
			}
			if res.Entry != tt.entry {
				t.Errorf("entry %q, want %q", res.Entry, tt.entry)
			}
			if want := filepath.Join(dir, tt.frameFile); res.Frame.File != want || res.Frame.Line != tt.frameLine {
				t.Errorf("frame %v, want %s:%d", res.Frame, want, tt.frameLine)
			}
		})
	}
	t.Run("seeds", func(t *testing.T) {
		res, err := driver.Replay(context.Background(), driver.Config{}, driver.Target{Dir: dir, Name: "FuzzX"}, "")
		if err != nil {
			t.Fatal(err)
		}
		if res.Passed || res.Kind != "panic" || res.Entry != "crash1" {
			t.Errorf("got %+v, want a panic in crash1", res)
		}
	})
}

func TestReplayErrors(t *testing.T) {
	dir := replayModule(t)
	if err := os.WriteFile(filepath.Join(dir, "testdata/fuzz/FuzzX/bad"), []byte("go test fuzz v1\nint(\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ fuzz, entry, want string }{
		{"FuzzX", "missing", "no such file"},
		{"FuzzX", "../../go.mod", "not a file name"},
		{"FuzzX", "bad", "bad:2"},
		{"TestX", "", "not a fuzz test name"},
	} {
		_, err := driver.Replay(context.Background(), driver.Config{}, driver.Target{Dir: dir, Name: tt.fuzz}, tt.entry)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Replay(%s, %q) = %v, want an error containing %q", tt.fuzz, tt.entry, err, tt.want)
		}
	}
	// A fuzz test behind a build tag the build does not set: go test
	// runs nothing, which is no pass (the editor said "pass").
	for name, text := range map[string]string{
		"tagged_test.go":               "//go:build integration\n\npackage rp\n\nimport \"testing\"\n\nfunc FuzzTagged(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, s string) { t.Fatal(s) })\n}\n",
		"testdata/fuzz/FuzzTagged/one": "go test fuzz v1\nstring(\"x\")\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if res, err := driver.Replay(context.Background(), driver.Config{}, driver.Target{Dir: dir, Name: "FuzzTagged"}, "one"); err == nil || !strings.Contains(err.Error(), "ran nothing") {
		t.Errorf("a fuzz test not in the build: got %+v, %v; want an error saying go test ran nothing", res, err)
	}
	// a malformed file fails every run of the fuzz test, and says so
	res, err := driver.Replay(context.Background(), driver.Config{}, driver.Target{Dir: dir, Name: "FuzzX"}, "fine")
	if err != nil || res.Passed || !strings.Contains(res.Message, "malformed") {
		t.Errorf("with a malformed file: got %+v, %v", res, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.go"), []byte("package rp\n\nfunc broken() { undefined() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = driver.Replay(context.Background(), driver.Config{}, driver.Target{Dir: dir, Name: "FuzzX"}, "fine")
	if err == nil || !strings.Contains(err.Error(), "build failed") || !strings.Contains(err.Error(), "undefined") {
		t.Errorf("build error: got %v", err)
	}
	// The first line says what failed (the checker shows only that line);
	// a vet check go test runs fails the build, unless -vet=off.
	if err := os.WriteFile(filepath.Join(dir, "broken.go"), []byte("package rp\n\nimport \"fmt\"\n\nfunc broken() string { return fmt.Sprintf(\"%d\", \"s\") }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = driver.Replay(context.Background(), driver.Config{}, driver.Target{Dir: dir, Name: "FuzzX"}, "fine")
	if first, _, _ := strings.Cut(fmt.Sprint(err), "\n"); !strings.Contains(first, "build failed: ./broken.go:5:") || !strings.Contains(first, "wrong type") {
		t.Errorf("vet error: first line %q of %v", first, err)
	}
	if _, err := driver.Replay(context.Background(), driver.Config{Vet: "off"}, driver.Target{Dir: dir, Name: "FuzzX"}, "fine"); err != nil {
		t.Errorf("with Vet off: %v", err)
	}
}
