package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goNewerThanFuzzvet reports whether the go command compiles for a Go
// newer than 1.26, whose export data fuzzvet's x/tools cannot read.
func goNewerThanFuzzvet(t *testing.T) bool {
	t.Helper()
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	v := strings.TrimSpace(string(out))
	minor, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(v, "go1."), ".", 2)[0])
	return err == nil && minor > 26
}

// TestVetNewerGo: under a go command newer than fuzzvet can read (Go 1.27,
// CI's second toolchain), fuzzbox vet says so and what to do.
func TestVetNewerGo(t *testing.T) {
	if !goNewerThanFuzzvet(t) {
		t.Skip("the go command is Go 1.26: TestVet covers it")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/p\n\ngo 1.26\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\nimport \"testing\"\n\nfunc FuzzP(f *testing.F) {}\n"), 0o666)
	var stdout, stderr bytes.Buffer
	code := run([]string{"vet", "-C", dir}, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "run it with GOTOOLCHAIN=go1.26") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and what to do", code, &stderr)
	}
}

func TestVet(t *testing.T) {
	if goNewerThanFuzzvet(t) {
		t.Skip("fuzzvet reads Go 1.26's export data only: TestVetNewerGo covers this go command")
	}
	const bad = "package p\n\nimport \"testing\"\n\nfunc FuzzP(f *testing.F) {\n\tf.Add(5)\n\tf.Fuzz(func(t *testing.T, n uint8) {})\n}\n"
	tests := []struct {
		name   string
		files  map[string]string
		args   []string
		code   int
		stdout []string // substrings of stdout
		stderr string
	}{
		{name: "clean", files: map[string]string{"p_test.go": strings.Replace(bad, "f.Add(5)", "f.Add(uint8(5))", 1)}, code: exitOK},
		{name: "bad add", files: map[string]string{"p_test.go": bad}, code: exitFinding,
			stdout: []string{"p_test.go:6:8: untyped constant 5 in f.Add has default type int, but fuzz argument n is uint8"}},
		{name: "bad corpus", code: exitFinding, files: map[string]string{
			"p_test.go":                 strings.Replace(bad, "f.Add(5)", "", 1),
			"testdata/fuzz/FuzzP/seed1": "go test fuzz v1\nuint8(1)\nuint8(2)\n",
		}, stdout: []string{"testdata/fuzz/FuzzP/seed1:3:1: corpus entry does not fit FuzzP: wrong number of values"}},
		{name: "pattern", files: map[string]string{"sub/p_test.go": bad}, args: []string{"./sub"}, code: exitFinding,
			stdout: []string{"sub/p_test.go:6:8: untyped constant 5"}},
		{name: "load error", files: map[string]string{"p.go": "package p\nfunc ("}, code: exitUsage, stderr: "fuzzbox vet: loading packages"},
		// One package that does not load (here a syntax error; on real modules a cgo
		// library the machine lacks, a go:embed file a module zip left out) leaves the
		// others checked: their diagnostics, then its error, exit 2.
		{name: "one load error", files: map[string]string{"sub/p_test.go": bad, "broken/b.go": "package b\nfunc ("}, code: exitUsage,
			stdout: []string{"sub/p_test.go:6:8: untyped constant 5"}, stderr: "fuzzbox vet: loading packages"},
		{name: "bad flag", args: []string{"-nope"}, code: exitUsage, stderr: "flag provided but not defined"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.files == nil {
				tc.files = map[string]string{}
			}
			tc.files["go.mod"] = "module example.com/p\n\ngo 1.26\n"
			tc.files["p.go"] = tc.files["p.go"] + "package p\n"
			for name, content := range tc.files {
				if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o777); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"vet", "-C", dir}, tc.args...), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, &stdout, &stderr)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, &stdout)
				}
			}
			if tc.code == exitOK && stdout.Len() > 0 {
				t.Errorf("clean run printed:\n%s", &stdout)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, &stderr)
			}
		})
	}
}

func TestVetHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"vet", "-h"}, &stdout, &stderr); code != exitOK || !strings.HasPrefix(stdout.String(), "usage: fuzzbox vet") {
		t.Errorf("vet -h: exit %d, stdout %q", code, &stdout)
	}
}
