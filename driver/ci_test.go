package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// ciRepo makes a git repository of a module with two packages, each with a
// fuzz test (and a failing test beside package a's), commits it as the base, and then, as the head, a bug in
// package a (a panic on inputs starting with "x"). It returns the
// repository's directory.
func ciRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":          "module example.com/ci\n\ngo 1.24\n",
		"a/a.go":          "package a\n\n// Parse returns the length of s.\nfunc Parse(s string) int {\n\treturn len(s)\n}\n",
		"a/a_test.go":     "package a\n\nimport \"testing\"\n\nfunc FuzzA(f *testing.F) {\n\tf.Add(\"abc\")\n\tf.Fuzz(func(t *testing.T, s string) { Parse(s) })\n}\n",
		"a/other_test.go": "package a\n\nimport \"testing\"\n\n// TestOther fails: the job's go test runs it, not fuzzbox ci.\nfunc TestOther(t *testing.T) { t.Fatal(\"TestOther ran\") }\n",
		"b/b.go":          "package b\n\n// Twice doubles n.\nfunc Twice(n int) int { return 2 * n }\n",
		"b/b_test.go":     "package b\n\nimport \"testing\"\n\nfunc FuzzB(f *testing.F) {\n\tf.Add(1)\n\tf.Fuzz(func(t *testing.T, n int) { Twice(n) })\n}\n",
	}
	git := baseCommit(t, dir, files)
	writeTestFile(t, filepath.Join(dir, "a/a.go"), "package a\n\n// Parse returns the length of s.\nfunc Parse(s string) int {\n\tif len(s) > 0 && s[0] == 'x' {\n\t\tpanic(\"a: x\")\n\t}\n\treturn len(s)\n}\n")
	git("commit", "-qam", "head")
	return dir
}

// baseCommit writes files into dir and commits them as a new git
// repository's first commit; it returns gitIn's function for dir.
func baseCommit(t *testing.T, dir string, files map[string]string) func(args ...string) {
	t.Helper()
	writeTestFiles(t, dir, files)
	git := gitIn(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "base")
	return git
}

// gitIn returns a function that runs git in dir, failing the test on error.
func gitIn(t *testing.T, dir string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", args[0], err, out)
		}
	}
}

// writeTestFiles writes files (path relative to dir: text) under dir.
func writeTestFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		writeTestFile(t, filepath.Join(dir, name), text)
	}
}

func writeTestFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestChanged(t *testing.T) {
	dir := ciRepo(t)
	ctx := context.Background()
	got, err := Changed(ctx, dir, "HEAD~1", []string{"./..."})
	if err != nil || len(got) != 1 || got[0] != "example.com/ci/a" {
		t.Errorf("Changed(HEAD~1) = %q, %v; want [example.com/ci/a]", got, err)
	}
	if got, err := Changed(ctx, dir, "HEAD", []string{"./..."}); err != nil || len(got) != 0 {
		t.Errorf("Changed(HEAD) = %q, %v; want none", got, err)
	}
	if _, err := Changed(ctx, dir, "no-such-revision", []string{"./..."}); err == nil {
		t.Error("Changed(no-such-revision): no error")
	}
	// The target branch moves on (b changes there) after this branch left
	// it at the base commit: only this branch's change counts.
	git := gitIn(t, dir)
	git("checkout", "-q", "-b", "target", "HEAD~1")
	writeTestFile(t, filepath.Join(dir, "b/b.go"), "package b\n\n// Twice doubles n.\nfunc Twice(n int) int { return n + n }\n")
	git("commit", "-qam", "the target branch moves on")
	git("checkout", "-q", "-")
	if got, err := Changed(ctx, dir, "target", []string{"./..."}); err != nil || len(got) != 1 || got[0] != "example.com/ci/a" {
		t.Errorf("Changed(target), the target moved on: %q, %v; want [example.com/ci/a]", got, err)
	}
}

// TestChangedBeyondGoFiles: what affects a package besides its directory's
// files and its imports' — a dependency update in go.mod (here the
// replacement of the module it imports; not the package in go.mod's
// directory), a file under its testdata directory (a new seed), a file it
// embeds from a subdirectory, and a new go or godebug line, which every
// package of the module is built with.
func TestChangedBeyondGoFiles(t *testing.T) {
	dir := t.TempDir()
	dep := "module example.com/dep\n\ngo 1.24\n"
	files := map[string]string{
		"go.mod":                  "module example.com/cm\n\ngo 1.24\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./dep\n",
		"dep/go.mod":              dep,
		"dep/dep.go":              "package dep\n\n// N is one.\nconst N = 1\n",
		"dep2/go.mod":             dep,
		"dep2/dep.go":             "package dep\n\n// N is two.\nconst N = 2\n",
		"cm.go":                   "package cm\n",
		"u/u.go":                  "package u\n\nimport \"example.com/dep\"\n\n// N is dep's.\nconst N = dep.N\n",
		"v/v.go":                  "package v\n",
		"v/testdata/fuzz/FuzzV/a": "go test fuzz v1\nstring(\"a\")\n",
		"w/w.go":                  "package w\n\nimport _ \"embed\"\n\n//go:embed static/x.txt\nvar x string\n",
		"w/static/x.txt":          "x\n",
		"x/x.go":                  "package x\n",
		"x/NOTES.md":              "notes\n",
		"y/y.go":                  "package y\n\nimport _ \"example.com/cm/x\"\n",
	}
	all := []string{"example.com/cm", "example.com/cm/u", "example.com/cm/v", "example.com/cm/w", "example.com/cm/x", "example.com/cm/y"}
	cgo := cgoEnabled()
	if cgo {
		files["c/c.go"] = "package c\n\n// #include \"c.inc\"\nimport \"C\"\n"
		files["c/c.inc"] = "int c;\n"
		files["z/z.go"] = "package z\n\nimport _ \"example.com/cm/c\"\n"
		all = slices.Insert(all, 1, "example.com/cm/c")
		all = append(all, "example.com/cm/z")
	}
	git := baseCommit(t, dir, files)
	for _, tc := range []struct {
		desc, file, text string
		want             []string
	}{
		{"a replacement moved", "go.mod", strings.Replace(files["go.mod"], "./dep", "./dep2", 1), []string{"example.com/cm/u"}},
		{"a new seed", "v/testdata/fuzz/FuzzV/b", "go test fuzz v1\nstring(\"b\")\n", []string{"example.com/cm/v"}},
		{"an embedded file", "w/static/x.txt", "y\n", []string{"example.com/cm/w"}},
		{"a new go line", "go.mod", strings.Replace(files["go.mod"], "go 1.24", "go 1.25", 1), all},
		{"a godebug line", "go.mod", files["go.mod"] + "\ngodebug panicnil=1\n", all},
		// Only x's tests may read its notes: y's binary does not change.
		{"a file the build does not read", "x/NOTES.md", "more notes\n", []string{"example.com/cm/x"}},
		{"go.sum alone", "go.sum", "example.com/other v1.0.0 h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n", nil},
		{"a file outside any package", "docs/notes.md", "notes\n", nil},
		{"a Go file", "x/x.go", "package x\n\n// X is.\nconst X = 1\n", []string{"example.com/cm/x", "example.com/cm/y"}},
		{"a file a cgo package's C code may include", cgoFile(cgo, "c/c.inc"), "int c, d;\n", []string{"example.com/cm/c", "example.com/cm/z"}},
		{"a seed whose name has a space and an accent", "v/testdata/fuzz/FuzzV/é b", "go test fuzz v1\nstring(\"c\")\n", []string{"example.com/cm/v"}},
	} {
		if tc.file == "" {
			continue
		}
		writeTestFile(t, filepath.Join(dir, tc.file), tc.text)
		got, err := Changed(context.Background(), dir, "HEAD", []string{"./..."})
		if err != nil || strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s (%s): Changed = %q, %v; want %q", tc.desc, tc.file, got, err, tc.want)
		}
		git("checkout", "-q", "--", ".")
		git("clean", "-qfd")
	}
}

// cgoEnabled reports whether the go command builds cgo packages here.
func cgoEnabled() bool {
	out, _ := exec.Command("go", "env", "CGO_ENABLED").Output()
	return strings.TrimSpace(string(out)) == "1"
}

// cgoFile returns file when cgo is on, and "" (a case left out) when not.
func cgoFile(cgo bool, file string) string {
	if !cgo {
		return ""
	}
	return file
}

// TestChangedThroughTests: a package's test binary holds what its tests
// import, transitively (r's test imports s, which imports t: a change to t
// reaches FuzzR, which it missed); a change to a package's test files
// affects that package only (p imports q; q's tests are not in p's binary,
// which it fuzzed all the same).
func TestChangedThroughTests(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":       "module example.com/ct\n\ngo 1.24\n",
		"t/t.go":       "package t\n\n// T is one.\nconst T = 1\n",
		"s/s.go":       "package s\n\nimport \"example.com/ct/t\"\n\n// S is t's.\nconst S = t.T\n",
		"r/r.go":       "package r\n",
		"r/r_test.go":  "package r\n\nimport (\n\t\"testing\"\n\n\t\"example.com/ct/s\"\n)\n\nfunc FuzzR(f *testing.F) { f.Fuzz(func(t *testing.T, n int) { _ = n + s.S }) }\n",
		"q/q.go":       "package q\n\n// Q is two.\nconst Q = 2\n",
		"q/q_test.go":  "package q_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/ct/q\"\n)\n\nfunc TestQ(t *testing.T) { _ = q.Q }\n",
		"q/in_test.go": "package q\n\nimport \"testing\"\n\nfunc TestIn(t *testing.T) {}\n",
		"p/p.go":       "package p\n\nimport \"example.com/ct/q\"\n\n// P is q's.\nconst P = q.Q\n",
	}
	git := baseCommit(t, dir, files)
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"t/t.go", []string{"example.com/ct/r", "example.com/ct/s", "example.com/ct/t"}},
		{"q/q_test.go", []string{"example.com/ct/q"}},
		{"q/in_test.go", []string{"example.com/ct/q"}},
		{"q/q.go", []string{"example.com/ct/p", "example.com/ct/q"}},
	} {
		writeTestFile(t, filepath.Join(dir, tc.file), files[tc.file]+"\n// changed\n")
		got, err := Changed(context.Background(), dir, "HEAD", []string{"./..."})
		if err != nil || strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s changed: Changed = %q, %v; want %q", tc.file, got, err, tc.want)
		}
		git("checkout", "-q", "--", ".")
	}
}

// TestCacheDirPerPackage: a given cache directory holds one directory per
// package when asked to (several packages' fuzz tests, CI), and is the
// package's own otherwise.
func TestCacheDirPerPackage(t *testing.T) {
	root := t.TempDir()
	for _, tc := range []struct {
		per  bool
		want string
	}{{false, root}, {true, filepath.Join(root, "example.com", "m", "p")}} {
		cfg := Config{CacheDir: root, cachePerPackage: tc.per}
		if got, err := cfg.cacheDir(Target{Package: "example.com/m/p", Name: "FuzzX"}); err != nil || got != tc.want {
			t.Errorf("per package %v: cacheDir = %q, %v; want %q", tc.per, got, err, tc.want)
		}
	}
}

// TestCI: the CI mode fuzzes only the package the change affects, fails
// the job on the new bucket and writes the reports; the next job, with the
// cache kept and a fresh checkout (no reproducer in testdata), finds the
// same bug known and passes.
func TestCI(t *testing.T) {
	dir := ciRepo(t)
	cfg := Config{Dir: dir, CacheDir: filepath.Join(t.TempDir(), "cache"), Fuzz: ".", FuzzTime: "8s",
		Fuzzbox: testFuzzbox(t), RSSLimitMB: DefaultRSSLimitMB, Parallel: 1}
	reps := CIReports{JUnit: filepath.Join(dir, "junit.xml"), SARIF: filepath.Join(dir, "fuzzbox.sarif"), Markdown: filepath.Join(dir, "summary.md")}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	out := Output{Stdout: &stdout, Stderr: &stderr, Prefix: "fuzzbox ci"}
	res := CI(ctx, cfg, "HEAD~1", []string{"./..."}, out, reps)
	if res.ExitCode != ExitFailure || len(res.Targets) != 1 || res.Targets[0].Name != "FuzzA" {
		t.Fatalf("first job: exit %d, targets %v; want exit 1 on FuzzA alone\n%s%s", res.ExitCode, res.Targets, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "fuzzbox ci: affected by the changes since HEAD~1: 1 fuzz test of 1 package; building the fuzzing binaries: example.com/ci/a\n") {
		t.Errorf("the job does not say what it fuzzes before it builds:\n%s", stdout.String())
	}
	if strings.Contains(stdout.String()+stderr.String(), "TestOther") {
		t.Errorf("the first job ran the package's tests:\n%s%s", stdout.String(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(cfg.CacheDir, "example.com", "ci", "a", "FuzzA.buckets", res.Targets[0].Failures[0].Bucket)); err != nil {
		t.Errorf("the bucket is not in the package's directory of the cache: %v", err)
	}

	var junit junitSuites
	if data, err := os.ReadFile(reps.JUnit); err != nil || xml.Unmarshal(data, &junit) != nil ||
		len(junit.Suites) != 1 || junit.Suites[0].Failures != 1 || junit.Suites[0].Cases[0].Name != "FuzzA" {
		t.Errorf("JUnit report %+v (%v): want one failing FuzzA case", junit, err)
	}
	var sarif struct {
		Runs []struct {
			Results []struct {
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	data, err := os.ReadFile(reps.SARIF)
	if err != nil || json.Unmarshal(data, &sarif) != nil || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 1 {
		t.Fatalf("SARIF report (%v):\n%s", err, data)
	}
	r := sarif.Runs[0].Results[0]
	if r.Level != "error" || len(r.Locations) != 1 || r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "a/a.go" ||
		r.Locations[0].PhysicalLocation.Region.StartLine != 6 {
		t.Errorf("SARIF result %+v: want an error at a/a.go:6", r)
	}
	if md, _ := os.ReadFile(reps.Markdown); !strings.Contains(string(md), "| `example.com/ci/a.FuzzA` | panic: a: x |") || !strings.Contains(string(md), "new `") {
		t.Errorf("markdown summary:\n%s", md)
	}
	// The reports name the reproducer from the repository's root, where
	// the package is a/.
	repro := "a/testdata/fuzz/FuzzA/" + filepath.Base(res.Targets[0].Failures[0].Reproducer)
	for _, p := range []string{reps.JUnit, reps.SARIF, reps.Markdown} {
		if data, _ := os.ReadFile(p); !strings.Contains(string(data), repro) {
			t.Errorf("%s does not name the reproducer %s:\n%s", filepath.Base(p), repro, data)
		}
	}

	// The next job: a fresh checkout, the same cache.
	if err := os.RemoveAll(filepath.Join(dir, "a", "testdata")); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	res = CI(ctx, cfg, "HEAD~1", []string{"./..."}, out, reps)
	if res.ExitCode != ExitOK || len(res.Targets) != 1 || len(res.Targets[0].Failures) != 1 || !res.Targets[0].Failures[0].Known {
		t.Errorf("second job: exit %d, %+v; want exit 0 with the known bucket\n%s", res.ExitCode, res.Targets, stdout.String())
	}
	if data, _ := os.ReadFile(reps.SARIF); !strings.Contains(string(data), `"level": "note"`) {
		t.Errorf("second SARIF report has no note for the known bucket:\n%s", data)
	}

	// A job that cannot fuzz fails, and its reports say why, where they
	// said no fuzz test was affected: a misspelt -fuzz, a package the
	// change leaves broken.
	typo := cfg
	typo.Fuzz = "FuzzAA"
	res = CI(ctx, typo, "HEAD~1", []string{"./..."}, out, reps)
	if res.ExitCode != ExitError || res.Err == nil || !strings.Contains(res.Err.Error(), "-fuzz=FuzzAA matches no fuzz test") {
		t.Errorf("-fuzz=FuzzAA: exit %d, %v; want exit 2, matching nothing", res.ExitCode, res.Err)
	}
	writeTestFile(t, filepath.Join(dir, "a", "broken.go"), "package a\n\nvar broken int = \"s\"\n")
	res = CI(ctx, cfg, "HEAD~1", []string{"./..."}, out, reps)
	if res.ExitCode != ExitError {
		t.Errorf("a package that does not build: exit %d, want 2", res.ExitCode)
	}
	md, _ := os.ReadFile(reps.Markdown)
	junitData, _ := os.ReadFile(reps.JUnit)
	sarifData, _ := os.ReadFile(reps.SARIF)
	if !strings.Contains(string(md), "fuzzbox could not fuzz") || !strings.Contains(string(md), "broken.go") ||
		!strings.Contains(string(junitData), `type="error"`) || !strings.Contains(string(sarifData), `"executionSuccessful": false`) {
		t.Errorf("the reports do not say the package does not build:\n%s\n%s\n%s", md, junitData, sarifData)
	}
}

// TestChangedGoModUnreadable: a go.mod that base does not have is new (its
// files tell what changed), but one git fails to show at base is an error,
// not "new since base", which took it for no change at all. (A git that
// fails only at "show" stands in for a failure git diff survived.)
func TestChangedGoModUnreadable(t *testing.T) {
	dir := t.TempDir()
	mod := "module example.com/cm\n\ngo 1.24\n"
	git := baseCommit(t, dir, map[string]string{"go.mod": mod, "p/p.go": "package p\n"})
	writeTestFile(t, filepath.Join(dir, "sub", "go.mod"), "module example.com/sub\n\ngo 1.24\n")
	writeTestFile(t, filepath.Join(dir, "sub", "s.go"), "package sub\n")
	if got, err := Changed(context.Background(), dir, "HEAD", []string{"./..."}); err != nil || len(got) != 0 {
		t.Errorf("a new nested module: Changed = %q, %v; want no package of this module, no error", got, err)
	}
	git("clean", "-qfd")

	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	fake := "#!/bin/sh\nif [ \"$1\" = show ]; then echo 'fatal: unable to read the blob' >&2; exit 128; fi\nexec " + real + " \"$@\"\n"
	writeTestFile(t, filepath.Join(bin, "git"), fake)
	if err := os.Chmod(filepath.Join(bin, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	writeTestFile(t, filepath.Join(dir, "go.mod"), strings.Replace(mod, "go 1.24", "go 1.25", 1))
	if got, err := Changed(context.Background(), dir, "HEAD", []string{"./..."}); err == nil || !strings.Contains(err.Error(), "reading go.mod at ") {
		t.Errorf("base's go.mod unreadable: Changed = %q, %v; want an error reading it", got, err)
	}
}

// TestReplayLine: the SARIF report's replay command works from the
// repository's root, where a module in a subdirectory has no go.mod.
func TestReplayLine(t *testing.T) {
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, "mod", "go.mod"), "module example.com/mod\n\ngo 1.24\n")
	writeTestFile(t, filepath.Join(root, "top", "go.mod"), "module example.com/top\n\ngo 1.24\n")
	f := event.Event{Kind: event.KindPanic, Reproducer: "testdata/fuzz/FuzzP/0123"}
	nested := TargetResult{Target: Target{Package: "example.com/mod/p", Name: "FuzzP", Dir: filepath.Join(root, "mod", "p")}}
	if got, want := replayLine(nested, f, root), "cd mod && go test -run=FuzzP/0123 example.com/mod/p"; got != want {
		t.Errorf("replayLine = %q, want %q", got, want)
	}
	atRoot := TargetResult{Target: Target{Package: "example.com/top/p", Name: "FuzzP", Dir: filepath.Join(root, "top", "p")}}
	if got, want := replayLine(atRoot, f, filepath.Join(root, "top")), "go test -run=FuzzP/0123 example.com/top/p"; got != want {
		t.Errorf("replayLine = %q, want %q", got, want)
	}
}

// cancelOn is standard output that cancels a job when an event of type
// typ is written to it.
type cancelOn struct {
	bytes.Buffer
	typ    string
	cancel context.CancelFunc
}

func (w *cancelOn) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(`"type":"`+w.typ+`"`)) {
		w.cancel()
	}
	return w.Buffer.Write(p)
}

// TestCIStopped: a job stopped while it fuzzes (a CI system's cancellation
// or timeout) fails with exit 2, its reports say it did not finish, and
// the JSON stream's exit event has the job's exit code. It exited 0, every
// fuzz test "ok" with nothing fuzzed: a cancelled job looked green.
func TestCIStopped(t *testing.T) {
	dir := ciRepo(t)
	cfg := Config{Dir: dir, CacheDir: filepath.Join(t.TempDir(), "cache"), Fuzz: "FuzzA", FuzzTime: "60s",
		Fuzzbox: testFuzzbox(t), RSSLimitMB: DefaultRSSLimitMB, Parallel: 1}
	reps := CIReports{JUnit: filepath.Join(dir, "junit.xml"), Markdown: filepath.Join(dir, "summary.md")}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	stdout := &cancelOn{typ: "build", cancel: cancel}
	var stderr bytes.Buffer
	res := CI(ctx, cfg, "HEAD~1", []string{"./..."}, Output{Stdout: stdout, Stderr: &stderr, Prefix: "fuzzbox ci", JSON: true}, reps)
	if res.ExitCode != ExitError || !strings.Contains(stderr.String(), "stopped before its fuzzing ended") {
		t.Errorf("a stopped job: exit %d, want 2 saying it was stopped\n%s", res.ExitCode, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var last event.Event
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Type != event.Exit || last.ExitCode == nil || *last.ExitCode != ExitError {
		t.Errorf("the stream's last event %q (%v), want the exit event with code 2", lines[len(lines)-1], err)
	}
	junit, _ := os.ReadFile(reps.JUnit)
	md, _ := os.ReadFile(reps.Markdown)
	if !strings.Contains(string(junit), `name="fuzzbox ci"`) || !strings.Contains(string(junit), "stopped before its fuzzing ended") ||
		!strings.Contains(string(md), "did not finish") {
		t.Errorf("the reports do not say the job was stopped:\n%s\n%s", junit, md)
	}
}

// TestCINothingAffectedJSON: with -json, a job with nothing to fuzz writes
// only events to standard output, the exit event last; its JUnit report
// has a passing case (an empty report fails some CI readers).
func TestCINothingAffectedJSON(t *testing.T) {
	dir := t.TempDir()
	git := baseCommit(t, dir, map[string]string{
		"go.mod":      "module example.com/none\n\ngo 1.24\n",
		"p/p_test.go": "package p\n\nimport \"testing\"\n\nfunc FuzzP(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }\n",
		"docs/a.md":   "a\n",
	})
	writeTestFile(t, filepath.Join(dir, "docs/a.md"), "b\n")
	git("commit", "-qam", "docs")
	var stdout, stderr bytes.Buffer
	junit := filepath.Join(t.TempDir(), "junit.xml")
	res := CI(context.Background(), Config{Dir: dir, CacheDir: t.TempDir()}, "HEAD~1", nil, Output{Stdout: &stdout, Stderr: &stderr, Prefix: "fuzzbox ci", JSON: true}, CIReports{JUnit: junit})
	var e event.Event
	if res.ExitCode != ExitOK || json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &e) != nil || e.Type != event.Exit || e.ExitCode == nil || *e.ExitCode != 0 {
		t.Errorf("exit %d; standard output %q, want one exit event with code 0", res.ExitCode, stdout.String())
	}
	if time.Since(e.Time) > time.Hour { // it was the zero time
		t.Errorf("the exit event's time is %v, want the job's end", e.Time)
	}
	if !strings.Contains(stderr.String(), "no fuzz test is affected") {
		t.Errorf("standard error %q does not say nothing was affected", stderr.String())
	}
	var doc junitSuites
	if data, err := os.ReadFile(junit); err != nil || xml.Unmarshal(data, &doc) != nil || len(doc.Suites) != 1 || doc.Suites[0].Tests != 1 || doc.Suites[0].Failures != 0 {
		t.Errorf("JUnit report %+v (%v): want one passing case", doc, err)
	}
}

// TestSARIFRuleOnce: two failures of one bucket (a testdata file that fails
// and a find of another way in, in one job) give one rule: the SARIF
// schema wants the rules unique, and GitHub's upload refuses the log.
func TestSARIFRuleOnce(t *testing.T) {
	f := event.Event{Type: event.Failure, Kind: event.KindPanic, Message: "panic: x", Bucket: "0123456789abcdef", Reproducer: "testdata/fuzz/FuzzA/a"}
	g := f
	g.Reproducer = "testdata/fuzz/FuzzA/b"
	res := Result{ExitCode: ExitFailure, Targets: []TargetResult{{Target: Target{Name: "FuzzA", Package: "example.com/a"}, Failures: []event.Event{f, g}}}}
	var b bytes.Buffer
	if err := writeSARIF(&b, res, ""); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Results []json.RawMessage
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Tool.Driver.Rules) != 1 || len(log.Runs[0].Results) != 2 {
		t.Errorf("SARIF (%v): want one rule and two results:\n%s", err, b.String())
	}
}
