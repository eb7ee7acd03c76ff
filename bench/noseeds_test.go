package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestDropSeeds(t *testing.T) {
	src := `package p

import (
	"bytes"
	"testing"
)

var seeds = []string{"a", "b"}

func FuzzX(f *testing.F) {
	f.Add([]byte("x"), 1, 'c')
	for _, s := range seeds {
		f.Add(bytes.ToUpper([]byte(s)),
			2)
	}
	f.Fuzz(func(t *testing.T, b []byte, n int, r rune) {
		t.Add(1) // not a *testing.F
	})
}

func helper(g *testing.F, f *T) {
	g.Add("y")
	f.Add("z")
}
`
	out, n, err := dropSeeds([]byte(src))
	if err != nil || n != 3 {
		t.Fatalf("dropSeeds: %d calls, %v; want 3", n, err)
	}
	got := string(out)
	if strings.Contains(got, `"x"`) || strings.Contains(got, "'c'") {
		t.Errorf("a seed's literal is left:\n%s", got)
	}
	for _, want := range []string{
		`_ = []any{[]byte(""), 1, ' '}`,
		"_ = []any{bytes.ToUpper([]byte(s)),\n\t\t\t2}",
		`_ = []any{""}`,
		`f.Add("z")`,
		`t.Add(1)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestWithoutSeeds copies a target module and checks that its copy still
// builds and adds no seed: go test -v of the copy runs the fuzz test
// with no seed subtest.
func TestWithoutSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	root := filepath.Join(t.TempDir(), "targets")
	os.MkdirAll(filepath.Join(root, "one"), 0o777)
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/targets\n\ngo 1.21\n"), 0o666)
	os.WriteFile(filepath.Join(root, "one", "one_test.go"), []byte(`package one

import (
	"strings"
	"testing"
)

func FuzzOne(f *testing.F) {
	f.Add(strings.Repeat("a", 3))
	f.Fuzz(func(t *testing.T, s string) {})
}
`), 0o444)
	copyRoot, calls, remove, err := withoutSeeds(root)
	if err != nil || calls != 1 {
		t.Fatalf("withoutSeeds: %d calls, %v", calls, err)
	}
	defer remove()
	if b, _ := os.ReadFile(filepath.Join(root, "one", "one_test.go")); !strings.Contains(string(b), "f.Add(") {
		t.Error("the original was changed")
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run=FuzzOne", ".")
	cmd.Dir = filepath.Join(copyRoot, "one")
	b, err := cmd.CombinedOutput()
	out := string(b)
	if err != nil {
		t.Fatalf("go test of the copy: %v\n%s", err, out)
	}
	if !strings.Contains(out, "--- PASS: FuzzOne") || strings.Contains(out, "FuzzOne/seed#0") {
		t.Errorf("go test of the copy ran a seed, or not the fuzz test:\n%s", out)
	}
	remove()
	if _, err := os.Stat(copyRoot); !os.IsNotExist(err) {
		t.Errorf("the copy is still there: %v", err)
	}
}
