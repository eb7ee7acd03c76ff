package main

// End-to-end tests of "fuzzbox fuzz" as a command: a real fuzzbox binary
// fuzzes the modules in testdata/fuzz (copied to a temporary directory per
// scenario), and the tests check what the command adds to the driver: its
// flags and usage errors, its -json stream, its exit codes and how it stops
// on signals. What the driver makes of each kind of failure (events,
// reproducers replayed with stock "go test -run", minimization, flaky
// failures, -keepgoing, prebuilt binaries) is tested on the same fixtures
// by calling it (../../driver/fuzzrun_test.go).
//
// The fuzzbox binary is built once per test run, on first use, followed by a
// warm-up fuzzing build (the first instrumented build of the standard
// library takes a minute or two; later ones hit the go build cache).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var e2e struct {
	once sync.Once
	bin  string // the fuzzbox binary
	err  error
	dir  string // its temporary directory, removed by TestMain
}

func TestMain(m *testing.M) {
	code := m.Run()
	if e2e.dir != "" {
		os.RemoveAll(e2e.dir)
	}
	os.Exit(code)
}

// e2eBin returns the fuzzbox binary, building it and warming the build
// cache on first use.
func e2eBin(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	e2e.once.Do(func() {
		e2e.dir, e2e.err = os.MkdirTemp("", "fuzzbox-e2e-")
		if e2e.err != nil {
			return
		}
		bin := filepath.Join(e2e.dir, "fuzzbox")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			e2e.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		e2e.bin = bin
		// Warm-up: the instrumented standard library.
		dir := filepath.Join(e2e.dir, "warmup")
		if err := os.CopyFS(dir, os.DirFS("testdata/fuzz/targets")); err != nil {
			e2e.err = err
			return
		}
		cmd := exec.Command(bin, "fuzz", "-fuzz=^FuzzNever$", "-fuzztime=1x", "-cachedir="+filepath.Join(dir, "cache"), ".")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			e2e.err = fmt.Errorf("warm-up fuzzing run: %v\n%s", err, out)
		}
	})
	if e2e.err != nil {
		t.Fatal(e2e.err)
	}
	return e2e.bin
}

// e2eModule copies testdata/fuzz/name to a new temporary directory.
func e2eModule(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "fuzz", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// e2eResult is one fuzzbox run.
type e2eResult struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

func (r e2eResult) String() string {
	return fmt.Sprintf("exit %d after %v\nstdout:\n%s\nstderr:\n%s", r.code, r.took.Round(time.Millisecond), e2eClip(r.stdout), e2eClip(r.stderr))
}

// e2eClip keeps test logs readable.
func e2eClip(s string) string {
	if len(s) > 6000 {
		return "[...]\n" + s[len(s)-6000:]
	}
	return s
}

// e2eFuzz runs fuzzbox with args in dir, with the generated corpus kept in dir.
func e2eFuzz(t *testing.T, dir string, args ...string) e2eResult {
	t.Helper()
	return e2eFuzzIn(t, dir, nil, args...)
}

// e2eFuzzIn is e2eFuzz with fuzzbox run by the command wrap, which is
// given fuzzbox's path and arguments as its last.
func e2eFuzzIn(t *testing.T, dir string, wrap []string, args ...string) e2eResult {
	t.Helper()
	bin := e2eBin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	args = append([]string{"fuzz", "-cachedir=" + filepath.Join(dir, ".cache")}, args...)
	cmd := exec.CommandContext(ctx, bin, args...)
	if len(wrap) > 0 {
		cmd = exec.CommandContext(ctx, wrap[0], append(append(wrap[1:len(wrap):len(wrap)], bin), args...)...)
	}
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := e2eResult{code: e2eExitCode(t, err), stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("fuzzbox %s did not finish in 4 minutes:\n%s", strings.Join(args, " "), r)
	}
	return r
}

func e2eExitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// e2eReproducers returns the files of testdata/fuzz/<target> in dir.
func e2eReproducers(t *testing.T, dir, target string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "testdata", "fuzz", target))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// e2eEvent is the subset of the -json event fields the tests check.
type e2eEvent struct {
	Type       string `json:"type"`
	Time       string `json:"time"`
	Elapsed    *int64 `json:"elapsed_ms"`
	Package    string `json:"package"`
	Target     string `json:"target"`
	Progress   string `json:"progress"`
	Workers    int    `json:"workers"`
	Execs      int64  `json:"execs"`
	Kind       string `json:"kind"`
	Message    string `json:"message"`
	Reproducer string `json:"reproducer"`
	Output     string `json:"output"`
	Duplicate  bool   `json:"duplicate"`
	Failures   int    `json:"failures"`
	Found      bool   `json:"found"`
	Error      string `json:"error"`
	ExitCode   *int   `json:"exit_code"`
}

// e2eEvents parses a -json stream: every line must be one JSON object with a
// type, an RFC 3339 time and elapsed_ms.
func e2eEvents(t *testing.T, stdout string) []e2eEvent {
	t.Helper()
	var evs []e2eEvent
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e e2eEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Errorf("not a JSON event: %q: %v", sc.Text(), err)
			continue
		}
		if e.Type == "" || e.Elapsed == nil {
			t.Errorf("event without type or elapsed_ms: %s", sc.Text())
		}
		if _, err := time.Parse(time.RFC3339Nano, e.Time); err != nil {
			t.Errorf("event time %q: %v", e.Time, err)
		}
		evs = append(evs, e)
	}
	return evs
}

// e2eFirstOfType returns the index of the first event of type typ, or -1.
func e2eFirstOfType(evs []e2eEvent, typ string) int {
	for i, e := range evs {
		if e.Type == typ {
			return i
		}
	}
	return -1
}

func TestFuzzJSON(t *testing.T) {
	dir := e2eModule(t, "targets")
	r := e2eFuzz(t, dir, "-json", "-fuzz=^FuzzPanic$", "-fuzztime=60s", ".")
	if r.code != 1 {
		t.Fatalf("want exit 1\n%s", r)
	}
	evs := e2eEvents(t, r.stdout)
	last := -1
	for _, typ := range []string{"build", "baseline", "start", "failure", "done"} {
		i := e2eFirstOfType(evs, typ)
		if i < 0 {
			t.Errorf("no %s event\n%s", typ, r)
			continue
		}
		if i < last {
			t.Errorf("%s event out of order (index %d after %d)", typ, i, last)
		}
		last = i
		e := evs[i]
		switch typ {
		case "build":
			if e.Package == "" {
				t.Errorf("build event without package: %+v", e)
			}
		case "baseline":
			if !regexp.MustCompile(`^\d+/\d+$`).MatchString(e.Progress) || e.Target != "FuzzPanic" {
				t.Errorf("baseline event: %+v", e)
			}
		case "start":
			if e.Workers <= 0 || e.Progress == "" {
				t.Errorf("start event: %+v", e)
			}
		case "failure":
			name := e2eReproducers(t, dir, "FuzzPanic")
			if e.Kind != "panic" || !strings.Contains(e.Message, "fuzzbox-e2e: boom") || len(name) != 1 ||
				!strings.HasSuffix(e.Reproducer, filepath.Join("testdata", "fuzz", "FuzzPanic", name[0])) {
				t.Errorf("failure event: %+v (reproducers %q)", e, name)
			}
		case "done":
			if e.Execs <= 0 || e.Failures != 1 || !e.Found {
				t.Errorf("done event: %+v", e)
			}
		}
	}
	if i := e2eFirstOfType(evs, "exit"); i < 0 || evs[i].ExitCode == nil || *evs[i].ExitCode != 1 || i != len(evs)-1 {
		t.Errorf("no exit event with exit code 1 last (index %d of %d)", i, len(evs))
	}
	if i := e2eFirstOfType(evs, "failure"); i >= 0 && regexp.MustCompile(`(?m)^\s*testing\.go:\d+: `).MatchString(evs[i].Message) {
		t.Errorf("failure message keeps the testing package's prefix: %q", evs[i].Message)
	}
}

// TestFuzzJSONStderr checks that what the package's tests write to standard
// error (the log package, println, a crashing test's panic) is output in
// the event stream, in order, as go test -json has it, and that nothing of
// it reaches fuzzbox's own standard error: a reader of the events (an
// editor, CI) would not see it.
func TestFuzzJSONStderr(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/stderr\n\ngo 1.21\n")
	write("s_test.go", `package stderr

import (
	"fmt"
	"log"
	"os"
	"testing"
)

func TestPrints(t *testing.T) {
	println("from println")
	log.Print("from the log package")
	fmt.Println("to stdout")
	if os.Getenv("STDERR_CRASH") != "" {
		var m map[string]int
		m["x"] = 1
	}
}

func FuzzX(f *testing.F) {
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) {})
}
`)
	r := e2eFuzz(t, dir, "-json", "-v", "-fuzz=^FuzzX$", "-fuzztime=1x", ".")
	if r.code != 0 {
		t.Fatalf("want exit 0\n%s", r)
	}
	var out []string
	for _, e := range e2eEvents(t, r.stdout) {
		if e.Type == "output" {
			out = append(out, strings.TrimSuffix(e.Output, "\n"))
		}
	}
	at := func(prefix string) int {
		return slices.IndexFunc(out, func(l string) bool { return strings.Contains(l, prefix) })
	}
	run, pl, lg, so, pass := at("=== RUN   TestPrints"), at("from println"), at("from the log package"), at("to stdout"), at("--- PASS: TestPrints")
	if run < 0 || pl < run || lg < pl || so < lg || pass < so {
		t.Errorf("want the test's lines in order in the output events (indices %d %d %d %d %d):\n%s", run, pl, lg, so, pass, strings.Join(out, "\n"))
	}
	if strings.Contains(r.stderr, "from println") || strings.Contains(r.stderr, "from the log package") {
		t.Errorf("the tests' standard error reached fuzzbox's:\n%s", r)
	}

	// A test that crashes the binary: its panic is in the events, and the
	// driver still names the test (go test fails it too).
	r = e2eFuzzIn(t, dir, []string{"env", "STDERR_CRASH=1"}, "-json", "-fuzz=^FuzzX$", "-fuzztime=1x", ".")
	if r.code != 1 {
		t.Fatalf("want exit 1\n%s", r)
	}
	var all strings.Builder
	for _, e := range e2eEvents(t, r.stdout) {
		all.WriteString(e.Output)
		all.WriteString(e.Message)
	}
	for _, want := range []string{"panic: assignment to entry in nil map", "TestPrints failed under go test too"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no %q in the events:\n%s", want, r)
		}
	}
}

func TestFuzzUsageErrors(t *testing.T) {
	tests := []struct {
		name   string
		module string
		args   []string
		msg    string
	}{
		{"no -fuzz", "targets", []string{"-fuzztime=1x", "."}, "-fuzz"},
		{"bad -fuzz regexp", "targets", []string{"-fuzz=(", "."}, "-fuzz"},
		{"bad -fuzztime", "targets", []string{"-fuzz=FuzzNever", "-fuzztime=abc", "."}, "-fuzztime"},
		{"negative -fuzztime", "targets", []string{"-fuzz=FuzzNever", "-fuzztime=-1s", "."}, "-fuzztime"},
		// A flag neither fuzzbox nor go test defines is the test binary's, as go test passes it (and then "." too).
		{"unknown flag", "targets", []string{"-fuzz=FuzzNever", "-nosuchflag", "."}, "flag provided but not defined: -nosuchflag"},
		{"no fuzz tests", "nofuzz", []string{"-fuzz=.", "-fuzztime=1x", "."}, "no fuzz tests"},
		{"regexp matches none", "targets", []string{"-fuzz=^FuzzNope$", "-fuzztime=1x", "."}, "matches no fuzz test"},
		{"does not build", "broken", []string{"-fuzz=.", "-fuzztime=1x", "."}, "undefinedFunction"},
		// After -args, nothing is fuzzbox's: the packages default to ".", and the binary gets the rest.
		{"-args ends the flags", "targets", []string{"-fuzz=^FuzzNope$", "-fuzztime=1x", "-args", "-nosuchflag=1", "extra"}, "matches no fuzz test"},
		{"-args reach the binary", "targets", []string{"-fuzz=.", "-fuzztime=1x", ".", "-args", "-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := e2eModule(t, tt.module)
			r := e2eFuzz(t, dir, tt.args...)
			if r.code != 2 {
				t.Fatalf("want exit 2\n%s", r)
			}
			var msgs []string
			for _, l := range strings.Split(r.stderr, "\n") {
				if strings.HasPrefix(l, "fuzzbox fuzz: ") {
					msgs = append(msgs, l)
				}
			}
			if len(msgs) != 1 || !strings.Contains(msgs[0], tt.msg) {
				t.Errorf("want one \"fuzzbox fuzz: \" line mentioning %q, have %q\n%s", tt.msg, msgs, r)
			}
			if n := len(e2eReproducers(t, dir, "FuzzNever")); n != 0 {
				t.Errorf("a usage error wrote %d reproducers", n)
			}
			if tt.module == "broken" && !strings.HasSuffix(r.stdout, "FAIL\texample.com/broken [build failed]\n") {
				t.Errorf("want go test's \"FAIL\\texample.com/broken [build failed]\" last\n%s", r)
			}
		})
	}
}

// TestFuzzGOFLAGS: go test's flags in GOFLAGS apply, as go test applies
// them, unless the command line sets them.
func TestFuzzGOFLAGS(t *testing.T) {
	dir := e2eModule(t, "targets")
	t.Setenv("GOFLAGS", "-fuzztime=abc")
	if r := e2eFuzz(t, dir, "-fuzz=^FuzzNever$", "."); r.code != 2 || !strings.Contains(r.stderr, `fuzzbox fuzz: -fuzztime: "abc"`) {
		t.Errorf("GOFLAGS=-fuzztime=abc: want exit 2 naming -fuzztime\n%s", r)
	}
	if r := e2eFuzz(t, dir, "-fuzz=^FuzzNever$", "-fuzztime=1x", "."); r.code != 0 {
		t.Errorf("-fuzztime on the command line wins over GOFLAGS: want exit 0\n%s", r)
	}
	// go test's -json is not fuzzbox's go commands' (go env printed JSON:
	// every run failed); -cover changes the build, and is refused by name.
	t.Setenv("GOFLAGS", "-json")
	if r := e2eFuzz(t, dir, "-fuzz=^FuzzNever$", "-fuzztime=1x", "."); r.code != 0 {
		t.Errorf("GOFLAGS=-json: want exit 0\n%s", r)
	}
	// go test ignores a -w (here of an -ldflags unquoted); go env, which
	// has one, refused -json with it, and fuzzbox ran nothing.
	t.Setenv("GOFLAGS", "-ldflags=-s -w")
	if r := e2eFuzz(t, dir, "-fuzz=^FuzzNever$", "-fuzztime=1x", "."); r.code != 0 {
		t.Errorf("GOFLAGS=-ldflags=-s -w: want exit 0\n%s", r)
	}
	// The same in the GOFLAGS go env -w wrote, which the go command reads
	// when the environment has none: fuzzbox read the environment's alone.
	envFile := filepath.Join(t.TempDir(), "env")
	if err := os.WriteFile(envFile, []byte("GOFLAGS=-json -ldflags=-s -w\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOENV", envFile)
	t.Setenv("GOFLAGS", "")
	if r := e2eFuzz(t, dir, "-fuzz=^FuzzNever$", "-fuzztime=1x", "."); r.code != 0 {
		t.Errorf("go env -w GOFLAGS=-json -ldflags=-s -w: want exit 0\n%s", r)
	}
	t.Setenv("GOFLAGS", "-cover")
	if r := e2eFuzz(t, dir, "-fuzz=^FuzzNever$", "-fuzztime=1x", "."); r.code != 2 || !strings.Contains(r.stderr, "GOFLAGS holds go test's -cover") {
		t.Errorf("GOFLAGS=-cover: want exit 2 naming GOFLAGS\n%s", r)
	}
	// go test's -fuzz in GOFLAGS is fuzzbox's -fuzz, not its builds': it
	// had go test -c instrument for go's own fuzzing, and every build
	// failed. The stock build replays the failure.
	t.Setenv("GOFLAGS", "-fuzz=^FuzzPanic$")
	r := e2eFuzz(t, dir, "-fuzztime=60s", ".")
	if names := e2eReproducers(t, dir, "FuzzPanic"); r.code != 1 || len(names) != 1 || !strings.Contains(r.stdout, "fuzzbox-e2e: boom") {
		t.Errorf("GOFLAGS=-fuzz=^FuzzPanic$: want exit 1 with one reproducer of its panic, have %d\n%s", len(names), r)
	}
}

// TestFuzzGoTestCommandLine: a go test command line works as fuzzbox
// fuzz's (driver.ParseCommandLine): go test's build flags reach the build
// (-ldflags, with spaces and quotes, through GOFLAGS), a flag of the test
// binary's own (-update) reaches every run of it, -count=1 is taken, and
// the test binary's GOFLAGS are the user's; the fixture's bug needs all of
// them, and stock go test with the same command line replays the
// reproducer.
func TestFuzzGoTestCommandLine(t *testing.T) {
	dir := e2eModule(t, "goflags")
	t.Setenv("GOFLAGS", "-modcacherw") // the fixture's test binary must see it as it is
	ldflags := "-X 'example.com/goflags.Mode=on air'"
	r := e2eFuzz(t, dir, "-count=1", "-fuzz=^FuzzMode$", "-fuzztime=90s", ".", "-update", "-ldflags", ldflags)
	names := e2eReproducers(t, dir, "FuzzMode")
	if r.code != 1 || len(names) != 1 || !strings.Contains(r.stdout, "built with -ldflags, run with -update") {
		t.Fatalf("want exit 1 with one reproducer of the fixture's panic, have %d\n%s", len(names), r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-run=^FuzzMode$/^"+names[0]+"$", ".", "-update", "-ldflags", ldflags)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "built with -ldflags, run with -update") {
		t.Errorf("stock go test with the same flags: %v, want the reproducer's panic:\n%s", err, out)
	}
	// The command fuzzbox shows for a replay with the run's flags, run by a shell as a reader would paste it.
	const say = "fuzzbox: go test replays it with this run's flags: "
	i := strings.Index(r.stdout, say)
	if i < 0 {
		t.Fatalf("no %q line\n%s", say, r)
	}
	line, _, _ := strings.Cut(r.stdout[i+len(say):], "\n")
	cmd = exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "built with -ldflags, run with -update") {
		t.Errorf("the shown command %s: %v, want the reproducer's panic:\n%s", line, err, out)
	}
	if r := e2eFuzz(t, dir, "-fuzz=^FuzzMode$", "-cover", "."); r.code != 2 || !strings.Contains(r.stderr, "fuzzbox fuzz: go test's -cover is not fuzzbox's: what a fuzz test's corpus covers is fuzzbox cover's") {
		t.Errorf("-cover: want exit 2 saying why\n%s", r)
	}
}

// TestFuzzWithoutHome: with neither $HOME nor $XDG_CACHE_HOME, as in some
// CI sandboxes that set GOCACHE and GOPATH alone, fuzzbox runs as go test
// does (it refused: "neither $XDG_CACHE_HOME nor $HOME are defined").
func TestFuzzWithoutHome(t *testing.T) {
	dir := e2eModule(t, "targets")
	for _, v := range []string{"GOCACHE", "GOPATH", "GOMODCACHE"} {
		out, err := exec.Command("go", "env", v).Output()
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv(v, strings.TrimSpace(string(out)))
	}
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	if r := e2eFuzz(t, dir, "-fuzz=^FuzzNever$", "-fuzztime=1x", "."); r.code != 0 {
		t.Errorf("want exit 0\n%s", r)
	}
}

// TestFuzzChangeDir: go test's -C dir, as the first flag, runs the
// command in dir (it was refused); and -timeout=0 is taken (it was refused).
func TestFuzzChangeDir(t *testing.T) {
	dir := e2eModule(t, "targets")
	cmd := exec.Command(e2eBin(t), "fuzz", "-C", dir, "-cachedir="+filepath.Join(dir, ".cache"), "-fuzz=^FuzzNever$", "-fuzztime=1x", ".")
	cmd.Dir = t.TempDir()
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "ok") {
		t.Errorf("fuzzbox fuzz -C %s: %v\n%s", dir, err, out)
	}
	// go test's -timeout=0, no limit on the run, keeps the per-input one.
	if r := e2eFuzz(t, dir, "-fuzz=^FuzzNever$", "-fuzztime=1x", "-timeout=0", "."); r.code != 0 {
		t.Errorf("-timeout=0: want exit 0\n%s", r)
	}
	cmd = exec.Command(e2eBin(t), "fuzz", "-fuzz=^FuzzNever$", "-C", dir, ".")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "-C must be the first flag") {
		t.Errorf("-C not first: %v, want a usage error saying so\n%s", err, out)
	}
}

// TestFuzzOverlay: go test's -overlay reaches the fuzzing build too (the
// build's own overlay overrode it: the file on disk was fuzzed, its panic
// refuted by go test, which built the overlay, and called fuzzbox's bug),
// and a relative -overlay or -modfile names a file in the directory the
// command runs in, as for go test, not in the package's.
func TestFuzzOverlay(t *testing.T) {
	dir := t.TempDir()
	for path, text := range map[string]string{
		"go.mod":       "module example.com/ov\n\ngo 1.26\n",
		"alt.mod":      "module example.com/ov\n\ngo 1.26\n",
		"p/check.go":   "package p\n\n// Check checks s.\nfunc Check(s string) {\n\tif len(s) >= 4 && s[:4] == \"FUZZ\" {\n\t\tpanic(\"boom on disk\")\n\t}\n}\n",
		"alt/check.go": "package p\n\n// Check checks s.\nfunc Check(s string) {\n\tif len(s) >= 2 && s[:2] == \"OV\" {\n\t\tpanic(\"boom from the overlay\")\n\t}\n}\n",
		"p/p_test.go":  "package p\n\nimport \"testing\"\n\nfunc FuzzX(f *testing.F) {\n\tf.Add(\"a\")\n\tf.Fuzz(func(t *testing.T, s string) { Check(s) })\n}\n",
		"o.json":       `{"Replace": {"p/check.go": "alt/check.go"}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, path)), 0o777); err != nil {
			t.Fatal(err)
		}
		writeE2E(t, filepath.Join(dir, path), text)
	}
	r := e2eFuzz(t, dir, "-fuzz=^FuzzX$", "-fuzztime=60s", "-overlay=o.json", "-modfile=alt.mod", "./p")
	if r.code != 1 || !strings.Contains(r.stdout, "boom from the overlay") || strings.Contains(r.stdout+r.stderr, "internal error") {
		t.Errorf("want exit 1 on the overlay's panic, no internal error\n%s", r)
	}
	// An overlay file given by its absolute path may still name relative
	// paths (the directory the command runs in is theirs).
	if err := os.RemoveAll(filepath.Join(dir, "p", "testdata")); err != nil {
		t.Fatal(err)
	}
	r = e2eFuzz(t, dir, "-fuzz=^FuzzX$", "-fuzztime=60s", "-overlay="+filepath.Join(dir, "o.json"), "./p")
	if r.code != 1 || !strings.Contains(r.stdout, "boom from the overlay") || strings.Contains(r.stdout+r.stderr, "internal error") {
		t.Errorf("-overlay by its absolute path: want exit 1 on the overlay's panic, no internal error\n%s", r)
	}
}

// TestFuzzGoTestCorpus: a fuzz test fuzzed with go test -fuzz before starts
// from go test's generated corpus ($GOCACHE/fuzz/<import path>/FuzzX) too:
// its entries join fuzzbox's, each once, and go test's is only read;
// -gocache=false leaves it out.
func TestFuzzGoTestCorpus(t *testing.T) {
	bin := e2eBin(t)
	dir := t.TempDir()
	path := fmt.Sprintf("example.com/gocorpus%d", time.Now().UnixNano())
	writeE2E(t, filepath.Join(dir, "go.mod"), "module "+path+"\n\ngo 1.26\n")
	writeE2E(t, filepath.Join(dir, "p_test.go"), `package p

import "testing"

func FuzzGo(f *testing.F) {
	f.Add("x")
	f.Fuzz(func(t *testing.T, s string) {
		n := 0
		for _, c := range []byte(s) {
			switch {
			case c == 'a':
				n++
			case c >= '0' && c <= '9':
				n += 2
			case c == '{':
				n += 3
			}
		}
		if n > 1000000 {
			t.Fatal("unreachable")
		}
	})
}
`)
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	gocorpus := filepath.Join(strings.TrimSpace(string(out)), "fuzz", path, "FuzzGo")
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(gocorpus)) })
	cmd := exec.Command("go", "test", "-run=^$", "-fuzz=^FuzzGo$", "-fuzztime=3000x", "-parallel=1", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -fuzz: %v\n%s", err, out)
	}
	ents, err := os.ReadDir(gocorpus)
	if err != nil || len(ents) == 0 {
		t.Fatalf("go test -fuzz left no generated corpus in %s: %v", gocorpus, err)
	}
	var goNames []string
	for _, e := range ents {
		goNames = append(goNames, e.Name())
	}
	msg := fmt.Sprintf("fuzz: %d inputs of go test -fuzz's corpus of FuzzGo (%s) join the generated corpus", len(ents), gocorpus)
	fuzz := func(args ...string) e2eResult {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"fuzz", "-cachedir=" + filepath.Join(dir, ".cache"), "-fuzz=^FuzzGo$", "-fuzztime=1x"}, args...)...)
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return e2eResult{code: e2eExitCode(t, err), stdout: stdout.String(), stderr: stderr.String()}
	}
	if r := fuzz("-gocache=false", "."); r.code != 0 || strings.Contains(r.stdout, "go test -fuzz's corpus") {
		t.Errorf("-gocache=false: want exit 0 and go test's corpus left out\n%s", r)
	}
	if r := fuzz("."); r.code != 0 || !strings.Contains(r.stdout, msg) {
		t.Errorf("want exit 0 and %q\n%s", msg, r)
	}
	record, _ := os.ReadFile(filepath.Join(dir, ".cache", "FuzzGo.gocache"))
	if got := strings.Fields(string(record)); !slices.Equal(slices.Sorted(slices.Values(got)), goNames) {
		t.Errorf("recorded as copied: %q, want go test's %q", got, goNames)
	}
	if r := fuzz("."); r.code != 0 || strings.Contains(r.stdout, "go test -fuzz's corpus") {
		t.Errorf("second run: want exit 0 and nothing copied again\n%s", r)
	}
	if after, err := os.ReadDir(gocorpus); err != nil || len(after) != len(ents) {
		t.Errorf("go test's corpus changed: %d entries, %v; want %d", len(after), err, len(ents))
	}
}

// writeE2E writes a file of a test's module.
func writeE2E(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}

// e2eProc is one process as /proc shows it.
type e2eProc struct {
	pid, pgrp int
	zombie    bool
	cmdline   string
}

// e2eProcesses lists the processes of process group pgrp.
func e2eProcesses(pgrp int) []e2eProc {
	ents, _ := os.ReadDir("/proc")
	var out []e2eProc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...
		i := bytes.LastIndexByte(stat, ')')
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 3 {
			continue
		}
		g, _ := strconv.Atoi(f[2])
		if g != pgrp {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, e2eProc{pid: pid, pgrp: g, zombie: f[0] == "Z", cmdline: strings.ReplaceAll(string(cmd), "\x00", " ")})
	}
	return out
}

// e2eWorkers returns the live fuzzing worker processes of group pgrp.
func e2eWorkers(pgrp int) []e2eProc {
	var out []e2eProc
	for _, p := range e2eProcesses(pgrp) {
		if !p.zombie && strings.Contains(p.cmdline, "-test.fuzzworker") {
			out = append(out, p)
		}
	}
	return out
}

// e2eCoordinator returns the live coordinator (the test binary run with
// -test.fuzz but not as a worker) of group pgrp.
func e2eCoordinator(pgrp int) (e2eProc, bool) {
	for _, p := range e2eProcesses(pgrp) {
		if !p.zombie && strings.Contains(p.cmdline, "-test.fuzz=") && !strings.Contains(p.cmdline, "-test.fuzzworker") {
			return p, true
		}
	}
	return e2eProc{}, false
}

// e2eLiveRun is a fuzzbox fuzz process in its own process group.
type e2eLiveRun struct {
	cmd    *exec.Cmd
	lines  chan string // stdout lines
	done   chan struct{}
	stdout strings.Builder
	mu     sync.Mutex
	stderr bytes.Buffer
	err    error
}

// e2eStart starts fuzzbox in a new process group and returns once the
// engine reports that fuzzing started.
func e2eStart(t *testing.T, dir string, args ...string) *e2eLiveRun {
	t.Helper()
	bin := e2eBin(t)
	args = append([]string{"fuzz", "-cachedir=" + filepath.Join(dir, ".cache")}, args...)
	l := &e2eLiveRun{cmd: exec.Command(bin, args...), lines: make(chan string, 1000), done: make(chan struct{})}
	l.cmd.Dir = dir
	l.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	l.cmd.Stderr = &l.stderr
	out, err := l.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := l.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-l.cmd.Process.Pid, syscall.SIGKILL)
		<-l.done
	})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			l.mu.Lock()
			l.stdout.WriteString(sc.Text() + "\n")
			l.mu.Unlock()
			select {
			case l.lines <- sc.Text():
			default:
			}
		}
		l.err = l.cmd.Wait()
		close(l.done)
	}()
	deadline := time.After(3 * time.Minute)
	for {
		select {
		case line := <-l.lines:
			if strings.Contains(line, "now fuzzing") || strings.Contains(line, `"type":"start"`) {
				return l
			}
		case <-l.done:
			t.Fatalf("fuzzbox exited before fuzzing started: %v\n%s\n%s", l.err, l.output(), l.stderr.String())
		case <-deadline:
			t.Fatalf("fuzzing did not start in 3 minutes\n%s", l.output())
		}
	}
}

func (l *e2eLiveRun) output() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stdout.String()
}

// wait waits up to d for fuzzbox to exit and returns its exit code.
func (l *e2eLiveRun) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-l.done:
		return e2eExitCode(t, l.err)
	case <-time.After(d):
		t.Fatalf("fuzzbox still running %v later\n%s", d, l.output())
		return -1
	}
}

// e2eWaitNoWorkers waits up to d for group pgrp to have no live workers.
func e2eWaitNoWorkers(t *testing.T, pgrp int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		ws := e2eWorkers(pgrp)
		if len(ws) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("worker processes left %v later: %+v", d, ws)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestFuzzInterrupt(t *testing.T) {
	dir := e2eModule(t, "targets")
	l := e2eStart(t, dir, "-fuzz=^FuzzNever$", "-fuzztime=2m", ".")
	pgrp := l.cmd.Process.Pid
	if ws := e2eWorkers(pgrp); len(ws) == 0 {
		t.Fatalf("no worker processes found while fuzzing: %+v", e2eProcesses(pgrp))
	}
	time.Sleep(500 * time.Millisecond)
	// Ctrl-C: the terminal signals the whole process group.
	if err := syscall.Kill(-pgrp, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code := l.wait(t, 3*time.Second)
	if code != 0 {
		t.Errorf("exit %d after Ctrl-C with nothing found, want 0\n%s\n%s", code, l.output(), l.stderr.String())
	}
	e2eWaitNoWorkers(t, pgrp, time.Second)
	if n := len(e2eReproducers(t, dir, "FuzzNever")); n != 0 {
		t.Errorf("Ctrl-C wrote %d reproducers", n)
	}
}

func TestFuzzCoordinatorKilled(t *testing.T) {
	dir := e2eModule(t, "targets")
	l := e2eStart(t, dir, "-fuzz=^FuzzNever$", "-fuzztime=2m", ".")
	pgrp := l.cmd.Process.Pid
	c, ok := e2eCoordinator(pgrp)
	if !ok || len(e2eWorkers(pgrp)) == 0 {
		t.Fatalf("no coordinator or no workers: %+v", e2eProcesses(pgrp))
	}
	if err := syscall.Kill(c.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	e2eWaitNoWorkers(t, pgrp, 3*time.Second)
	if code := l.wait(t, 5*time.Second); code == 0 {
		t.Errorf("fuzzbox exit 0 after its coordinator was killed\n%s", l.output())
	}
}

// TestFuzzWorkerKilled: a worker killed from outside (as by the OOM killer
// or a user) is restarted and fuzzing goes on. Its input did not fail, so
// nothing should be reported.
func TestFuzzWorkerKilled(t *testing.T) {
	dir := e2eModule(t, "targets")
	l := e2eStart(t, dir, "-fuzz=^FuzzNever$", "-fuzztime=6s", ".")
	pgrp := l.cmd.Process.Pid
	ws := e2eWorkers(pgrp)
	if len(ws) == 0 {
		t.Fatalf("no workers: %+v", e2eProcesses(pgrp))
	}
	if err := syscall.Kill(ws[0].pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// A replacement is started.
	deadline := time.Now().Add(3 * time.Second)
	for {
		restarted := false
		for _, w := range e2eWorkers(pgrp) {
			restarted = restarted || w.pid != ws[0].pid && (len(ws) < 2 || w.pid != ws[1].pid)
		}
		if restarted {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("no worker was started to replace the killed one: %+v", e2eProcesses(pgrp))
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	code := l.wait(t, time.Minute)
	out := l.output()
	if code != 0 || strings.Contains(out, "found ") || len(e2eReproducers(t, dir, "FuzzNever")) != 0 {
		t.Errorf("a worker killed from outside was reported as a failure (exit %d, reproducers %q):\n%s",
			code, e2eReproducers(t, dir, "FuzzNever"), e2eClip(out))
	}
	if !regexp.MustCompile(`execs: [1-9]\d*`).MatchString(out) {
		t.Errorf("no executions reported after the restart:\n%s", e2eClip(out))
	}
}
