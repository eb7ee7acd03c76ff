package build

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// TestRewriteTestingSource: the Go release's testing/testing.go gets both
// rewrites, each on its own line (positions in testing.go stay testing's);
// a testing.go without them as expected is left alone.
func TestRewriteTestingSource(t *testing.T) {
	path, src := gorootSource(t, "testing", "testing.go")
	out := rewriteTestingSource(src, path)
	if !bytes.Contains(out, []byte(runnerKept)) || !bytes.Contains(out, []byte(reportLazy)) {
		t.Fatalf("rewritten testing.go lacks a rewrite")
	}
	first, rest, _ := bytes.Cut(out, []byte("\n"))
	if string(first) != "//line "+path+":1" || bytes.Count(rest, []byte("\n")) != bytes.Count(src, []byte("\n")) {
		t.Errorf("rewritten testing.go starts %q and has %d lines after it, want the line directive and %d", first, bytes.Count(rest, []byte("\n")), bytes.Count(src, []byte("\n")))
	}
	if got := rewriteTestingSource(bytes.Replace(src, []byte(reportFormat), nil, 1), path); got != nil {
		t.Error("a testing.go without report's formatting was rewritten")
	}
	path, src = gorootSource(t, "testing", "fuzz.go")
	out = rewriteFuzzSource(src, path)
	if !bytes.Contains(out, []byte(creatorKept)) || bytes.Count(out, []byte("\n")) != bytes.Count(src, []byte("\n"))+1 {
		t.Errorf("rewritten fuzz.go lacks the kept creator or changed its lines")
	}
}

const helperTests = `package u

import "testing"

func TestHelperTop(t *testing.T) {
	t.Helper()
	t.Error("top-level helper")
}

func TestHelperTopAgain(t *testing.T) {
	t.Helper()
	t.Error("top-level helper again")
}

func check(t *testing.T) {
	t.Helper()
	t.Error("from check")
}

func TestCallsHelper(t *testing.T) {
	check(t)
}

func TestPasses(t *testing.T) {}
`

// TestTestingRewriteKeepsReports: a binary built with the rewritten
// testing reports as go test's does: t.Helper's frames (a test that is a
// helper itself stops the walk at tRunner, whose name the rewrite keeps),
// -test.v's PASS lines and the FAIL lines with their durations.
func TestTestingRewriteKeepsReports(t *testing.T) {
	opts := setup(t, map[string]string{"go.mod": goMod, "u.go": libSrc, "u_test.go": helperTests})
	res, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	nm, err := exec.Command("go", "tool", "nm", res.Binary).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	if !strings.Contains(string(nm), "testing.fuzzboxRunner") {
		t.Errorf("the binary's testing was not rewritten: no testing.fuzzboxRunner")
	}
	out, code := runBinary(t, res.Binary, opts.Dir, "-test.run=^Test", "-test.v")
	for _, want := range []string{
		"u_test.go:7: top-level helper",
		"u_test.go:12: top-level helper again",
		"u_test.go:21: from check",
		"--- FAIL: TestHelperTop (0.00s)",
		"--- PASS: TestPasses (0.00s)",
	} {
		if !strings.Contains(out, want) || code != 1 {
			t.Errorf("exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	out, _ = runBinary(t, res.Binary, opts.Dir, "-test.run=^Test")
	if strings.Contains(out, "--- PASS") || !strings.Contains(out, "--- FAIL: TestCallsHelper (0.00s)") {
		t.Errorf("without -test.v, want FAIL lines only:\n%s", out)
	}
}

const topHelperTests = `package u

import "testing"

func FuzzTopHelper(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		t.Helper()
		if string(b) == "fail" {
			t.Errorf("top-level helper %q", b)
		}
	})
}
`

// TestLibFuzzerKeptCreator: in a libFuzzer binary (a fuzzing worker, whose
// first input's creator stack is kept for the others) a fuzz function that
// calls t.Helper and fails reports the frame go test -fuzz reports,
// reflect's value.go, on an input after the first.
func TestLibFuzzerKeptCreator(t *testing.T) {
	needClang(t)
	bin := buildLibFuzzerTest(t, topHelperTests, "FuzzTopHelper")
	nm, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	if !strings.Contains(string(nm), "testing.fuzzboxWorkerCreator") {
		t.Errorf("the binary's testing/fuzz.go was not rewritten: no testing.fuzzboxWorkerCreator")
	}
	work := t.TempDir()
	var files []string
	for _, in := range []string{"pass", "fail"} {
		data, err := corpus.EncodeLibFuzzer([]any{[]byte(in)})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.Join(work, in))
		if err := os.WriteFile(files[len(files)-1], data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	out, code := runBinary(t, bin, work, files...)
	if code == 0 || !regexp.MustCompile(`value\.go:\d+: top-level helper "fail"`).MatchString(out) {
		t.Errorf("exit %d, want the failure reported at reflect's value.go, as go test -fuzz reports it:\n%s", code, tail(out))
	}
}
