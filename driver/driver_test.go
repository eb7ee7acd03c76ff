package driver

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

func TestConfigCheck(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string // "" means valid
	}{
		{Config{Fuzz: "."}, ""},
		{Config{}, "-fuzz is required"},
		{Config{Fuzz: "("}, "-fuzz: "},
		{Config{Fuzz: ".", Run: "Test["}, "-run: "},
		{Config{Fuzz: ".", Skip: "("}, "-skip: "},
		{Config{Fuzz: ".", FuzzTime: "10"}, `-fuzztime: "10" is neither a duration nor Nx`},
		{Config{Fuzz: ".", FuzzTime: "100x", MinimizeTime: "0x"}, ""},
		{Config{Fuzz: ".", MinimizeTime: "-1s"}, "-fuzzminimizetime"},
		{Config{Fuzz: ".", Parallel: -1}, "-parallel must be >= 0"},
		{Config{Fuzz: ".", RSSLimitMB: -1}, "-rss_limit_mb must be >= 0"},
		{Config{Fuzz: ".", ReplayLimit: -1}, "replay limit must be > 0"},
		{Config{Fuzz: ".", Schedule: "fifo"}, `-schedule: "fifo"`},
		{Config{Fuzz: ".", Binary: "/nonexistent/bin"}, "-bin: /nonexistent/bin is not a file"},
		{Config{Fuzz: ".", StockBinary: "driver_test.go"}, "-stockbin is for a prebuilt fuzzing binary (-bin)"},
		{Config{Fuzz: ".", Binary: "driver_test.go", StockBinary: "/nonexistent/x.test"}, "-stockbin: /nonexistent/x.test is not a file"},
		{Config{Fuzz: ".", Binary: "driver_test.go", StockBinary: "driver_test.go"}, ""},
	} {
		err := tc.cfg.Check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: unexpected error %v", tc.cfg, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: error %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

// TestChildArgs checks the flag contract with the fuzzing binary: names
// from engine/ipc, defaults for the zero Config, and the options.
func TestChildArgs(t *testing.T) {
	tg := &TargetResult{Target: Target{Package: "example.com/p", Name: "FuzzX"}, dict: "/tmp/p.dict"}
	args, err := (&Config{Fuzz: ".", CacheDir: "/c"}).childArgs(tg, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"-test.fuzz=^FuzzX$", "-test.fuzzcachedir=/c", "-test.fuzzminimizetime=60s",
		"-" + ipc.FlagTimeout + "=" + ipc.DefaultTimeout.String(),
		"-" + ipc.FlagRSSLimitMB + "=0", // the zero Config: no limit, as the flag's 0

		"-" + ipc.FlagEventsFD + "=" + strconv.Itoa(ipc.EventsFD),
		"-" + ipc.FlagDict + "=/tmp/p.dict",
	} {
		if !slices.Contains(args, want) {
			t.Errorf("zero config: args %q lack %q", args, want)
		}
	}
	if slices.Contains(args, "-"+ipc.FlagNoLeaks+"=true") {
		t.Errorf("zero config: args %q turn leak detection off", args)
	}
	if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-"+ipc.FlagRaceTwin) }) {
		t.Errorf("no race twin built: args %q name one", args)
	}
	tg.twin = "/tmp/p.race.test"
	if args, _ = (&Config{Fuzz: ".", CacheDir: "/c"}).childArgs(tg, ""); !slices.Contains(args, "-"+ipc.FlagRaceTwin+"=/tmp/p.race.test") {
		t.Errorf("with a race twin built: args %q do not pass it", args)
	}
	cfg := Config{Fuzz: ".", CacheDir: "/c", RSSLimitMB: 512, KeepFlaky: true, NoCmp: true, NoLeaks: true, Schedule: "power", PruneOnly: true, Parallel: 3}
	args, _ = cfg.childArgs(tg, "5s")
	for _, want := range []string{
		"-" + ipc.FlagRSSLimitMB + "=512", "-" + ipc.FlagKeepFlaky + "=true", "-" + ipc.FlagNoCmp + "=true", "-" + ipc.FlagNoLeaks + "=true",
		"-" + ipc.FlagSchedule + "=power", "-" + ipc.FlagPruneOnly + "=true", "-test.run=^$", "-test.fuzztime=5s", "-test.parallel=3",
	} {
		if !slices.Contains(args, want) {
			t.Errorf("%+v: args %q lack %q", cfg, args, want)
		}
	}
}

// TestLeaksFlag: -leaks is on by default and sets Config.NoLeaks, whose
// zero value is the default, when turned off.
func TestLeaksFlag(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		noLeaks bool
	}{
		{nil, false}, {[]string{"-leaks"}, false}, {[]string{"-leaks=true"}, false}, {[]string{"-leaks=false"}, true},
	} {
		var f Flags
		fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
		f.Register(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		if f.NoLeaks != tt.noLeaks {
			t.Errorf("%q: NoLeaks = %v, want %v", tt.args, f.NoLeaks, tt.noLeaks)
		}
	}
	fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
	new(Flags).Register(fs)
	if err := fs.Parse([]string{"-leaks=maybe"}); err == nil {
		t.Error("-leaks=maybe was accepted")
	}
}

func TestFuzzShare(t *testing.T) {
	for _, tc := range []struct {
		ft       string
		n        int
		want     string
		wantOpen bool
	}{
		{"", 1, "", false},
		{"10s", 1, "10s", false},
		{"", 3, rotationSlice.String(), true},
		{"30s", 3, "10s", false},
		{"1000x", 3, "333x", false},
		{"2x", 3, "1x", false},
	} {
		b := newBudget(Config{FuzzTime: tc.ft}, tc.n)
		if got := b.share(tc.n); got != tc.want || b.open != tc.wantOpen {
			t.Errorf("budget(%q, %d): share %q, open %v; want %q, %v", tc.ft, tc.n, got, b.open, tc.want, tc.wantOpen)
		}
	}
}

// TestBudgetMovesOnPlateau: what a target that stopped on a plateau left of
// its share goes to the targets after it; a full turn uses its share.
func TestBudgetMovesOnPlateau(t *testing.T) {
	b := newBudget(Config{FuzzTime: "30s"}, 3)
	first := b.share(3)
	b.spent(first, &TargetResult{Plateau: true, fuzzedFor: 4 * time.Second})
	if got := b.share(2); got != "13s" {
		t.Errorf("after a plateau at 4s of %s: next share %s, want 13s", first, got)
	}
	b.spent("13s", &TargetResult{fuzzedFor: 13 * time.Second})
	if got := b.share(1); got != "13s" {
		t.Errorf("last share %s, want 13s", got)
	}

	n := newBudget(Config{FuzzTime: "900x"}, 3)
	n.spent(n.share(3), &TargetResult{Plateau: true, turnExecs: 100})
	if got := n.share(2); got != "400x" {
		t.Errorf("after a plateau at 100 of 300 executions: next share %s, want 400x", got)
	}
}

// TestBudgetMovesOnFailure: a target that failed leaves the rest of its share
// to the targets after it, and targets whose package did not build get none.
func TestBudgetMovesOnFailure(t *testing.T) {
	b := newBudget(Config{FuzzTime: "30s"}, 3)
	b.spent(b.share(3), &TargetResult{Failures: []event.Event{{Type: event.Failure}}, fuzzedFor: 2 * time.Second})
	if got := b.share(2); got != "14s" {
		t.Errorf("after a failure at 2s of 10s: next share %s, want 14s", got)
	}
	results := []*TargetResult{{}, {Err: "package does not build: x.go:1:1: boom"}, {}}
	if got := runnable(results); got != 2 {
		t.Errorf("runnable: %d, want 2 (one package does not build)", got)
	}
}

func TestSummarize(t *testing.T) {
	ok := &TargetResult{Target: Target{Name: "FuzzA"}}
	failed := &TargetResult{Target: Target{Name: "FuzzB"}, Failures: []event.Event{{Type: event.Failure}}}
	broken := &TargetResult{Target: Target{Name: "FuzzC"}, Err: "engine: giving up"}
	for _, tc := range []struct {
		rs   []*TargetResult
		want int
	}{
		{[]*TargetResult{ok}, ExitOK},
		{[]*TargetResult{ok, failed}, ExitFailure},
		{[]*TargetResult{failed, broken}, ExitError},
	} {
		if got := summarize(tc.rs); got.ExitCode != tc.want || (tc.want == ExitError) != (got.Err != nil) {
			t.Errorf("summarize: exit %d, err %v; want exit %d", got.ExitCode, got.Err, tc.want)
		}
	}
}

// fuzzboxBin is the fuzzbox command the tests' builds run as -toolexec,
// built once per test binary into a directory TestMain removes.
var fuzzboxBin struct {
	once     sync.Once
	dir, bin string
	err      error
}

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "toolexec" {
		// A test left Config.Fuzzbox empty, so the build ran this binary as
		// its toolexec: running the tests here would start builds of its own.
		fmt.Fprintln(os.Stderr, "driver.test was run as -toolexec: a test must set Config.Fuzzbox (testFuzzbox)")
		os.Exit(2)
	}
	code := m.Run()
	if fuzzboxBin.dir != "" {
		os.RemoveAll(fuzzboxBin.dir)
	}
	os.Exit(code)
}

// testFuzzbox builds the fuzzbox command for the build's -toolexec.
func testFuzzbox(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a fuzzing binary")
	}
	fuzzboxBin.once.Do(func() {
		if fuzzboxBin.dir, fuzzboxBin.err = os.MkdirTemp("", "fuzzbox-driver-test-"); fuzzboxBin.err != nil {
			return
		}
		bin := filepath.Join(fuzzboxBin.dir, "fuzzbox")
		if out, err := exec.Command("go", "build", "-o", bin, "../cmd/fuzzbox").CombinedOutput(); err != nil {
			fuzzboxBin.err = fmt.Errorf("building fuzzbox: %v\n%s", err, out)
			return
		}
		fuzzboxBin.bin = bin
	})
	if fuzzboxBin.err != nil {
		t.Fatal(fuzzboxBin.err)
	}
	return fuzzboxBin.bin
}

// targetsModule copies the fuzz command's fixture module of fuzz tests
// (../cmd/fuzzbox/testdata/fuzz/targets) to a temporary directory.
func targetsModule(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "targets")
	if err := os.CopyFS(dir, os.DirFS("../cmd/fuzzbox/testdata/fuzz/targets")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFuzzCancel: cancelling the context stops a run promptly, the exit
// event comes last, and no process of the fuzzing binary is left.
func TestFuzzCancel(t *testing.T) {
	fuzzbox := testFuzzbox(t)
	dir := targetsModule(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var types []string
	var binary string
	cfg := Config{Fuzz: "^FuzzNever$", Fuzzbox: fuzzbox, CacheDir: t.TempDir(), Parallel: 2, Stderr: os.Stderr}
	targets, err := Resolve(ctx, cfg, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan Result)
	go func() {
		done <- Fuzz(ctx, cfg, targets, func(e event.Event) {
			mu.Lock()
			defer mu.Unlock()
			types = append(types, e.Type)
			if e.Type == event.Start {
				cancel() // as an editor's stop button would
			}
		})
	}()
	var res Result
	select {
	case res = <-done:
	case <-time.After(4 * time.Minute):
		t.Fatal("Fuzz did not return after the context was cancelled")
	}
	mu.Lock()
	defer mu.Unlock()
	if res.ExitCode != ExitOK || len(res.Targets) != 1 {
		t.Fatalf("result %+v, want exit 0 for one target (events %v)", res, types)
	}
	binary = res.Targets[0].bin
	if !slices.Contains(types, event.Start) || types[len(types)-1] != event.Exit || types[0] != event.Build {
		t.Errorf("events %v: want build first, start, exit last", types)
	}
	// Workers die with their coordinator (parent-death signal): give the
	// kernel a moment to deliver it.
	deadline := time.Now().Add(3 * time.Second)
	for len(processesOf(binary)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if procs := processesOf(binary); len(procs) > 0 {
		t.Errorf("processes of %s left after cancel: %v", binary, procs)
	}
}

// processesOf returns the pids whose executable is bin (Linux /proc).
func processesOf(bin string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err == nil && (exe == bin || strings.TrimSuffix(exe, " (deleted)") == bin) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestResolveErrors: what a user gets for patterns with nothing to fuzz.
func TestResolveErrors(t *testing.T) {
	_, err := Resolve(context.Background(), Config{Fuzz: "."}, []string{"../event"})
	if err == nil || !strings.Contains(err.Error(), "no fuzz tests") {
		t.Errorf("package without fuzz tests: %v", err)
	}
	_, err = Resolve(context.Background(), Config{Fuzz: ".", Binary: "driver_test.go"}, []string{"a", "b"})
	if err == nil || !strings.Contains(err.Error(), "one package directory") {
		t.Errorf("-bin with two directories: %v", err)
	}
}

// TestRunResolveError: Run prints a selection that matches nothing as the
// front end's one error line, with no event, and exits as a usage error.
func TestRunResolveError(t *testing.T) {
	var stdout, stderr strings.Builder
	out := Output{Stdout: &stdout, Stderr: &stderr, Prefix: "fuzzbox fuzz"}
	res := Run(context.Background(), Config{Fuzz: "."}, []string{"../event"}, out)
	if res.ExitCode != ExitError || res.Err == nil || len(res.Targets) != 0 {
		t.Errorf("result %+v, want exit 2 with Resolve's error", res)
	}
	if want := "fuzzbox fuzz: " + oneLine(res.Err) + "\n"; stderr.String() != want || !strings.Contains(want, "no fuzz tests") {
		t.Errorf("stderr %q, want %q (no fuzz tests)", stderr.String(), want)
	}
	if stdout.Len() > 0 {
		t.Errorf("stdout %q, want nothing", stdout.String())
	}
}

// TestOutputSkipsDownloads: a failing command's error is its first line of
// standard error that says something, not the go command's notes of the
// modules it fetched first (a fresh module cache, a CI machine).
func TestOutputSkipsDownloads(t *testing.T) {
	cmd := exec.Command("sh", "-c", `echo "go: downloading example.com/m v1.0.0" >&2; echo "main.go:3: no required module provides package x" >&2; exit 1`)
	if _, err := output(cmd); err == nil || err.Error() != "main.go:3: no required module provides package x" {
		t.Errorf("output: %v; want the error line, not the download note", err)
	}
}

// TestOutputKeepsMessage: a go command's error keeps its lines (what to
// run next), without the module downloads it reported first.
func TestOutputKeepsMessage(t *testing.T) {
	cmd := exec.Command("sh", "-c", `echo 'go: downloading example.com/x v1.0.0' >&2; echo 'go: updates to go.mod needed; to update it:' >&2; printf '\tgo mod tidy\n' >&2; exit 1`)
	_, err := output(cmd)
	if err == nil || err.Error() != "go: updates to go.mod needed; to update it:\n\tgo mod tidy" {
		t.Errorf("output: %q, want the message's two lines", err)
	}
}
