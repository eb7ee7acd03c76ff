package driver

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/driver/build"
	"github.com/fuzzbox/fuzzbox/event"
)

// What front ends print of the driver's results, without building anything:
// the summary of a run of several fuzz tests (fuzzbox fuzz, the Bazel
// runner's summary.txt), of a coverage report (fuzzbox cover), and how a
// failed go test run reads (Replay).

func TestWriteSummary(t *testing.T) {
	res := Result{Targets: []TargetResult{
		{Target: Target{Package: "example.com/p", Name: "FuzzA"}, Execs: 1234, turned: true},
		{Target: Target{Package: "example.com/p", Name: "FuzzB"}, Failures: []event.Event{{Kind: "panic", Reproducer: "testdata/fuzz/FuzzB/0123"}},
			Flaky: []event.Event{{}}},
		{Target: Target{Package: "example.com/p", Name: "FuzzC"}, Err: "engine: giving up"},
		{Target: Target{Package: "example.com/p", Name: "FuzzD"}, ExitCode: ExitFailure},
		{Target: Target{Package: "example.com/p", Name: "FuzzE"}, Execs: 842, Unfuzzed: "842/7787", turned: true},
		{Target: Target{Package: "example.com/p", Name: "FuzzF"}}, // the run was stopped before its turn
		{Target: Target{Package: "example.com/p", Name: "FuzzG"}, ExitCode: ExitFailure, turned: true,
			StartFailed: "FuzzG's code before f.Fuzz failed in a fuzzing worker process (exit status 2), …. The worker's output:\npanic: listen tcp :8080: bind: address already in use"},
	}}
	var b strings.Builder
	res.WriteSummary(&b)
	want := "\nfuzzbox: 7 fuzz tests:\n" +
		"  ok    example.com/p.FuzzA                                1234 execs\n" +
		"  FAIL  example.com/p.FuzzB                                panic -> testdata/fuzz/FuzzB/0123 (1 flaky, not written)\n" +
		"  ERR   example.com/p.FuzzC                                engine: giving up\n" +
		"  FAIL  example.com/p.FuzzD                                tests failed (see output)\n" +
		"  ok    example.com/p.FuzzE                                842 execs, not fuzzed: its time ended while it ran its seed and generated corpus (842/7787 inputs)\n" +
		"  --    example.com/p.FuzzF                                not fuzzed: the run ended before its turn\n" +
		"  FAIL  example.com/p.FuzzG                                its code before f.Fuzz failed in a worker process (see output)\n"
	if b.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", b.String(), want)
	}
	// fuzzbox ci's reports say so too.
	for _, w := range []func(io.Writer, Result, string) error{writeMarkdown, writeJUnit} {
		b.Reset()
		if err := w(&b, Result{Targets: res.Targets[4:5]}, ""); err != nil || !strings.Contains(b.String(), "not fuzzed: its time ended") {
			t.Errorf("report %q, %v: want it to say FuzzE was not fuzzed", b.String(), err)
		}
	}
	// A fuzz test that failed in its workers before f.Fuzz fails a CI
	// job, which has no bucket to call it known by, and its reports say so.
	startFailed := Result{Targets: res.Targets[6:7]}
	if !startFailed.hasNew() {
		t.Error("a fuzz test that failed before f.Fuzz in its workers does not fail fuzzbox ci")
	}
	for _, w := range []func(io.Writer, Result, string) error{writeMarkdown, writeJUnit} {
		b.Reset()
		if err := w(&b, startFailed, ""); err != nil || !strings.Contains(b.String(), "FuzzG&#39;s code before f.Fuzz failed") && !strings.Contains(b.String(), "FAIL: FuzzG's code before f.Fuzz failed") {
			t.Errorf("report %q, %v: want it to say FuzzG failed before f.Fuzz", b.String(), err)
		}
	}
	// fuzzbox fuzz's summary: names longer than the column widen it; the
	// reproducers' paths are relative to the directory the command runs in,
	// or absolute outside it.
	several := Result{Targets: []TargetResult{
		{Target: Target{Package: "example.com/m/p", Name: "FuzzA", Dir: "/m/p"}, Failures: []event.Event{{Kind: "panic", Reproducer: "testdata/fuzz/FuzzA/01"}}},
		{Target: Target{Package: "example.com/m/a/very/long/package/path", Name: "FuzzWithALongName", Dir: "/elsewhere"},
			Failures: []event.Event{{Kind: "fail", Reproducer: "testdata/fuzz/FuzzWithALongName/02"}}},
	}}
	b.Reset()
	several.writeSummary(&b, "/m")
	want = "\nfuzzbox: 2 fuzz tests:\n" +
		"  FAIL  example.com/m/p.FuzzA                                    panic -> p/testdata/fuzz/FuzzA/01\n" +
		"  FAIL  example.com/m/a/very/long/package/path.FuzzWithALongName fail -> /elsewhere/testdata/fuzz/FuzzWithALongName/02\n"
	if b.String() != want {
		t.Errorf("summary from /m:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestGoTestLine: a run of one fuzz test ends with go test's line for its
// package; a run that fuzzbox's own error ended, several fuzz tests, or a
// binary that never ran have none.
func TestGoTestLine(t *testing.T) {
	one := func(code int, ran time.Duration) Result {
		return Result{ExitCode: code, Targets: []TargetResult{{Target: Target{Package: "example.com/p", Name: "FuzzA"}, ranFor: ran}}}
	}
	two := one(ExitOK, time.Second)
	two.Targets = append(two.Targets, two.Targets[0])
	notBuilt := errorResult(fmt.Errorf("%w: x.go:3:9: undefined: f", build.ErrNotBuilt))
	for _, c := range []struct {
		res  Result
		want string
	}{
		{one(ExitOK, 3015*time.Millisecond), "ok  \texample.com/p\t3.015s"},
		{one(ExitFailure, 217*time.Millisecond), "FAIL\texample.com/p\t0.217s"},
		{one(ExitError, time.Second), ""},
		{one(ExitFailure, 0), ""},
		{two, ""},
		{notBuilt, "FAIL\texample.com/p [build failed]"},
		{errorResult(errors.Join(notBuilt.Err, build.ErrSetupFailed)), ""}, // the go command printed "[setup failed]"
		{errorResult(errors.New("-fuzz: no fuzz test matches")), ""},
	} {
		targets := make([]Target, max(1, len(c.res.Targets)))
		for i := range targets {
			targets[i] = Target{Package: "example.com/p", Name: "FuzzA"}
		}
		if got := c.res.goTestLine(targets); got != c.want {
			t.Errorf("exit %d (%v), %d targets: got %q, want %q", c.res.ExitCode, c.res.Err, len(targets), got, c.want)
		}
	}
}

// TestLabels: the status lines' labels of a run of several fuzz tests are
// their names, with the package where two share a name.
func TestLabels(t *testing.T) {
	if got := labels([]Target{{Package: "p", Name: "FuzzA"}}); got != nil {
		t.Errorf("one target: labels %v, want none (go test's lines)", got)
	}
	got := labels([]Target{{Package: "p", Name: "FuzzA"}, {Package: "p", Name: "FuzzB"}, {Package: "q", Name: "FuzzA"}})
	want := map[string]string{"p.FuzzA": "p.FuzzA", "p.FuzzB": "FuzzB", "q.FuzzA": "q.FuzzA"}
	if !maps.Equal(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
}

func TestShownDirs(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(cwd, "a")
	if got := shownDirs([]Target{{Package: "p", Name: "FuzzA", Dir: a}, {Package: "p", Name: "FuzzB", Dir: a}}); got != nil {
		t.Errorf("one package: dirs %v, want none (its reproducers named as go test names them)", got)
	}
	out := filepath.Join(filepath.Dir(cwd), "elsewhere")
	got := shownDirs([]Target{{Package: "p", Name: "FuzzA", Dir: a}, {Package: "q", Name: "FuzzA", Dir: filepath.Join(a, "b")}, {Package: "r", Name: "FuzzC", Dir: out}})
	want := map[string]string{"p.FuzzA": "a", "q.FuzzA": filepath.Join("a", "b"), "r.FuzzC": out}
	if !maps.Equal(got, want) {
		t.Errorf("dirs %v, want %v", got, want)
	}
}

func TestCoverSummary(t *testing.T) {
	cr := &CoverReport{Target: "FuzzK", CoverPkg: "example.com/k", Statements: 8, Covered: 5, Percent: 62.5, Entries: EntryReport{
		Seeds: 2, Generated: 3, Passed: []string{"a", "b", "c", "d"}, Failed: []string{"e"},
		Crashed: []string{"f", "g"}, Unreadable: []Unreadable{{Name: "h", Error: "malformed"}}, crashedGenerated: 1,
	}}
	want := "FuzzK: replayed 5 corpus entries (2 seeds, 3 from the generated corpus): 4 passed, 1 failed\n" +
		"failing entries (coverage counted): e\n" +
		"crashed entries (1 from the generated corpus; coverage not counted): f g\n" +
		"unreadable generated-corpus entry (skipped): h: malformed\n" +
		"coverage: 62.5% of statements in example.com/k\n"
	if got := cr.Summary(); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
	// A package of test files only has no statements, as go test -cover says.
	cr = &CoverReport{Target: "FuzzK", CoverPkg: "example.com/k", Entries: EntryReport{Seeds: 1, Passed: []string{"seed#0"}}}
	if got := cr.Summary(); !strings.HasSuffix(got, "\ncoverage: [no statements] in example.com/k\n") {
		t.Errorf("summary without statements:\n%s", got)
	}
}

// TestCoverWrite: what RunCover prints of a report, as text (the function
// table with funcs, the summary, the HTML report) and as JSON; and which
// reports are clean.
func TestCoverWrite(t *testing.T) {
	cr := &CoverReport{Target: "FuzzK", CoverPkg: "example.com/k", HTML: "/tmp/r.html", FuncTable: "k.go:1: F 100.0%\n",
		Entries: EntryReport{Seeds: 1, Passed: []string{"a"}}}
	var b strings.Builder
	cr.write(&b, false, true)
	if want := cr.FuncTable + cr.Summary() + "report: /tmp/r.html\n"; b.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	cr.write(&b, false, false)
	if strings.Contains(b.String(), cr.FuncTable) {
		t.Errorf("text without funcs has the function table:\n%s", b.String())
	}
	b.Reset()
	cr.write(&b, true, true)
	if !strings.HasPrefix(b.String(), "{\n  \"package\": \"\",\n  \"target\": \"FuzzK\",") || strings.Contains(b.String(), "F 100.0%") {
		t.Errorf("JSON:\n%s", b.String())
	}
	if !cr.Entries.Clean() {
		t.Error("a report whose entries all passed is not clean")
	}
	for _, e := range []EntryReport{{Failed: []string{"f"}}, {Crashed: []string{"c"}}, {Unreadable: []Unreadable{{Name: "u"}}}} {
		if e.Clean() {
			t.Errorf("%+v is clean", e)
		}
	}
}

// TestParseFailure: the kind, message, entry and frame Replay reads from go
// test's output of each kind of failure.
func TestParseFailure(t *testing.T) {
	const root, dir = "/m", "/m/p"
	for _, tc := range []struct {
		name, out        string
		kind, msg, entry string
		frame            Frame
	}{
		{"panic", "--- FAIL: FuzzX (0.00s)\n    --- FAIL: FuzzX/crash1 (0.00s)\npanic: boom [recovered]\n\ngoroutine 7 [running]:\n" +
			"testing.tRunner.func1()\n\t/go/src/testing/testing.go:1\nexample.com/m/p.Parse()\n\t/m/p/x.go:5 +0x1d\n",
			event.KindPanic, "boom", "crash1", Frame{"/m/p/x.go", 5}},
		{"fail", "--- FAIL: FuzzX (0.00s)\n    --- FAIL: FuzzX/fail1 (0.00s)\n        x_test.go:9: got fail input\nFAIL\n",
			event.KindFail, "got fail input", "fail1", Frame{"/m/p/x_test.go", 9}},
		{"fail -fullpath", "--- FAIL: FuzzX (0.00s)\n    --- FAIL: FuzzX/fail1 (0.00s)\n        /m/p/x_test.go:9: got fail input\nFAIL\n",
			event.KindFail, "got fail input", "fail1", Frame{"/m/p/x_test.go", 9}}, // GOFLAGS=-fullpath
		{"hang", "panic: test timed out after 1m0s\n\trunning tests:\n\t\tFuzzX/slow (1m0s)\n\ngoroutine 1 [running]:\nexample.com/m/p.Loop()\n\t/m/p/x.go:12 +0x1\n",
			event.KindHang, "panic: test timed out after 1m0s", "", Frame{"/m/p/x.go", 12}},
		{"fatal", "fatal error: concurrent map writes\n\ngoroutine 5 [running]:\nexample.com/m/p.W()\n\t/m/p/x.go:20 +0x1\n",
			event.KindFatal, "fatal error: concurrent map writes", "", Frame{"/m/p/x.go", 20}},
		{"race", "==================\nWARNING: DATA RACE\nWrite at 0x00c by goroutine 8:\n  example.com/m/p.W()\n      /m/p/x.go:20 +0x1\n",
			event.KindRace, "WARNING: DATA RACE\nWrite at 0x00c by goroutine 8:\n  example.com/m/p.W()\n      /m/p/x.go:20 +0x1", "", Frame{}},
		{"exit", "--- FAIL: FuzzX (0.00s)\n    --- FAIL: FuzzX/e (0.00s)\nexit status 3\n",
			event.KindExit, "exit status 3", "e", Frame{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := parseFailure(tc.out, "FuzzX", root, dir)
			if res.Kind != tc.kind || res.Message != tc.msg || res.Entry != tc.entry || res.Frame != tc.frame {
				t.Errorf("got kind %q msg %q entry %q frame %v\nwant %q %q %q %v", res.Kind, res.Message, res.Entry, res.Frame, tc.kind, tc.msg, tc.entry, tc.frame)
			}
		})
	}
}

// TestFailureFrame: where a failure event's message puts the failure, for
// CI's SARIF report and the editor's diagnostics.
func TestFailureFrame(t *testing.T) {
	const root, dir = "/m", "/m/p"
	for _, tc := range []struct {
		name, msg string
		want      Frame
		ok        bool
	}{
		{"panic", "panic: boom [recovered]\n\ngoroutine 7 [running]:\nruntime.gopanic()\n\t/go/src/runtime/panic.go:1 +0x1\nexample.com/m/p.Parse()\n\t/m/p/x.go:5 +0x1d\n", Frame{"/m/p/x.go", 5}, true},
		{"panic indented", "    panic: boom\n    example.com/m/p.Parse()\n    \t/m/p/x.go:7 +0x1d\n", Frame{"/m/p/x.go", 7}, true},
		{"t.Fatal", "fuzz_test.go:92: cannot use map as argument (1:1)\n     | bitand(i,$env)\n     | ^", Frame{"/m/p/fuzz_test.go", 92}, true},
		{"hang outside root", "fuzzbox: hang\n\t/go/src/runtime/proc.go:3 +0x1\n", Frame{}, false},
	} {
		if got, ok := FailureFrame(tc.msg, dir, root); got != tc.want || ok != tc.ok {
			t.Errorf("%s: FailureFrame = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	// A module in a directory whose name has a space: the panic's frame,
	// not the t.Log line before it (the editor put the diagnostic there).
	msg := "    x_test.go:26: decoding\n    panic: boom\n    example.com/m/p.Parse()\n    \t/my mod/p/x.go:73 +0x1d\n"
	if got, ok := FailureFrame(msg, "/my mod/p", "/my mod"); got != (Frame{"/my mod/p/x.go", 73}) || !ok {
		t.Errorf("path with a space: FailureFrame = %v, %v; want /my mod/p/x.go:73", got, ok)
	}
}

// TestCodeRoot: a panic raised in a neighbour module of the workspace is
// the user's code, placed where it was raised; without a workspace (or with
// GOWORK=off) the module is the user's code.
func TestCodeRoot(t *testing.T) {
	t.Setenv("GOENV", "off")
	top := t.TempDir()
	for _, f := range []string{"a/go.mod", "a/p/x.go", "b/go.mod", "alone/go.mod", "alone/p/x.go", "other/go.work"} {
		if err := os.MkdirAll(filepath.Join(top, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(top, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(top, "a", "p")
	for _, tc := range []struct{ gowork, work, want string }{
		{"", "", filepath.Join(top, "a")},
		{"", "go.work", top},
		{"off", "go.work", filepath.Join(top, "a")},
		{filepath.Join(top, "other", "go.work"), "go.work", filepath.Join(top, "a")}, // a workspace a's module is not under
		{filepath.Join(top, "go.work"), "", top},
	} {
		if tc.work != "" {
			os.WriteFile(filepath.Join(top, tc.work), []byte("go 1.26\nuse (./a ./b)\n"), 0o644)
		} else {
			os.Remove(filepath.Join(top, "go.work"))
		}
		t.Setenv("GOWORK", tc.gowork)
		if got := CodeRoot(dir); got != tc.want {
			t.Errorf("GOWORK=%q, go.work %q: CodeRoot = %s, want %s", tc.gowork, tc.work, got, tc.want)
		}
	}
	// The workspace's neighbour module's frame, not the fuzz test's line.
	t.Setenv("GOWORK", "")
	os.WriteFile(filepath.Join(top, "go.work"), []byte("go 1.26\nuse (./a ./b)\n"), 0o644)
	// GOWORK=off that go env -w wrote counts as the environment's.
	env := filepath.Join(top, "env")
	os.WriteFile(env, []byte("GOWORK=off\n"), 0o644)
	t.Setenv("GOENV", env)
	if got := CodeRoot(dir); got != filepath.Join(top, "a") {
		t.Errorf("go env -w GOWORK=off: CodeRoot = %s, want %s", got, filepath.Join(top, "a"))
	}
	t.Setenv("GOENV", "off")
	msg := "panic: boom\n\ngoroutine 7 [running]:\nexample.com/b.Parse()\n\t" + filepath.Join(top, "b", "b.go") + ":9 +0x1\nexample.com/a/p.FuzzX.func1()\n\t" + filepath.Join(dir, "x_test.go") + ":12 +0x1\n"
	if got, ok := FailureFrame(msg, dir, CodeRoot(dir)); !ok || got.File != filepath.Join(top, "b", "b.go") {
		t.Errorf("FailureFrame in a workspace = %v, %v; want b/b.go:9", got, ok)
	}
}

// TestShownTestFlags: messages that show a go test check's command show
// the flags it runs with.
func TestShownTestFlags(t *testing.T) {
	if got := (&Config{}).shownTestFlags(); got != "" {
		t.Errorf("no flags: %q", got)
	}
	if got := (&Config{Race: true, Short: true, Tags: "a,b"}).shownTestFlags(); got != "-race -short -tags=a,b " {
		t.Errorf("race, short, tags: %q", got)
	}
}
