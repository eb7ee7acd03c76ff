package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const internalSrc = `package p

import "testing"

func TestMain(m *testing.M) { m.Run() }
func TestA(t *testing.T)     {}
func Testlower(t *testing.T) {} // not a test: lower case after the prefix
func BenchmarkB(b *testing.B) {}
func FuzzC(f *testing.F)     {}
func helper(t *testing.T)    {}

func ExampleD() {
	// Output: d
}

func ExampleNoOutput() {}
`

const externalSrc = `package p_test

import "testing"

func FuzzE(f *testing.F) {}
`

func TestSplitAndTestmain(t *testing.T) {
	dir := t.TempDir()
	in, ex := filepath.Join(dir, "x.internal."), filepath.Join(dir, "x.external.")
	a, b := filepath.Join(dir, "a_test.go"), filepath.Join(dir, "b_test.go")
	os.WriteFile(a, []byte(internalSrc), 0o666)
	os.WriteFile(b, []byte(externalSrc), 0o666)
	if err := split(in, ex, []string{a, b}); err != nil {
		t.Fatal(err)
	}
	for file, wantIgnored := range map[string]bool{"x.internal.a_test.go": false, "x.internal.b_test.go": true, "x.external.a_test.go": true, "x.external.b_test.go": false} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(data), "//go:build ignore"); got != wantIgnored {
			t.Errorf("%s: excluded = %v, want %v:\n%s", file, got, wantIgnored, data)
		}
		src := filepath.Join(dir, strings.SplitAfterN(file, ".", 3)[2]) // x.internal.a_test.go: a_test.go
		if !wantIgnored && !strings.HasPrefix(string(data), "//line "+filepath.ToSlash(src)+":1\n") {
			t.Errorf("%s: no line directive naming the source:\n%s", file, data)
		}
	}
	out := filepath.Join(dir, "main.go")
	if err := writeTestmain("example.com/p", "example.com/p_test", out, []string{a, b}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	for _, want := range []string{
		`{"TestA", _test.TestA}`, `{"BenchmarkB", _test.BenchmarkB}`, `{"FuzzC", _test.FuzzC}`,
		`{"FuzzE", _xtest.FuzzE}`, `{"ExampleD", _test.ExampleD, "d\n", false}`, `_test.TestMain(m)`,
		`_xtest "example.com/p_test"`, `"github.com/fuzzbox/fuzzbox/engine/fuzzmain"`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("test main lacks %s:\n%s", want, src)
		}
	}
	for _, bad := range []string{"Testlower", "helper", "ExampleNoOutput", "testing/internal/testdeps"} {
		if strings.Contains(src, bad) {
			t.Errorf("test main has %s:\n%s", bad, src)
		}
	}
}
