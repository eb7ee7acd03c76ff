package lsp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/lsp"
	"github.com/fuzzbox/fuzzbox/lsp/command"
)

var (
	fuzzboxOnce sync.Once
	fuzzboxBin  string
	fuzzboxErr  error
)

// fuzzbox builds the fuzzbox command once, for the fuzzing build's -toolexec.
func fuzzbox(t *testing.T) string {
	fuzzboxOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fuzzbox-lsp-test-")
		if err != nil {
			fuzzboxErr = err
			return
		}
		fuzzboxBin = filepath.Join(dir, "fuzzbox")
		out, err := exec.Command("go", "build", "-o", fuzzboxBin, "github.com/fuzzbox/fuzzbox/cmd/fuzzbox").CombinedOutput()
		if err != nil {
			fuzzboxErr = err
			fuzzboxBin = string(out)
		}
	})
	if fuzzboxErr != nil {
		t.Fatalf("building fuzzbox: %v\n%s", fuzzboxErr, fuzzboxBin)
	}
	return fuzzboxBin
}

// TestFuzz fuzzes the planted bug from the lens command through the real
// driver: progress, live lens state, the failure with its reproducer, its
// diagnostic at the first frame in the module, and a stop of a second run.
func TestFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes; skipped with -short")
	}
	root := fixture(t)
	c := start(t, root, lsp.Options{Fuzzbox: fuzzbox(t), Parallel: 2, FuzzTime: 3 * time.Minute})
	test := filepath.Join(root, "parse_test.go")
	args := command.FuzzArgs{URI: string(uri(test)), Name: "FuzzParse"}
	from := c.mark()
	if _, err := c.execute(command.Fuzz, args); err != nil {
		t.Fatal(err)
	}
	if got := titles(c.lenses(test)); len(got) != 1 || !strings.HasPrefix(got[0], "stop (fuzzing") {
		t.Errorf("lenses while fuzzing: %q", got)
	}
	c.waitFor(from, "$/progress", `"kind":"begin"`)
	m, _ := c.waitFor(from, "window/showMessage", "FuzzParse: found panic failure")
	t.Logf("showMessage: %s", *m.Params)
	c.waitFor(from, "window/logMessage", "fuzz: elapsed")
	c.waitFor(from, "textDocument/publishDiagnostics", filepath.Join(root, "parse.go"))
	c.waitFor(from, "$/progress", `"kind":"end"`)
	if e, _ := c.runEvent(from, command.StateFailed); e.Run != command.KindFuzz || e.Failure == nil || e.Failure.Line != 9 ||
		!strings.HasPrefix(e.Failure.Reproducer, string(uri(filepath.Join(root, "testdata/fuzz/FuzzParse")))+"/") ||
		len(e.Failure.Values) != 1 || !strings.HasPrefix(e.Failure.Values[0], `"FUZZ`) {
		t.Errorf("failed event %+v, failure %+v", e, e.Failure)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "testdata/fuzz/FuzzParse"))
	if len(entries) != 2 {
		t.Errorf("testdata/fuzz/FuzzParse has %d files, want ok1 and the reproducer", len(entries))
	}
	if got := titles(c.lenses(test)); len(got) != 3 || !strings.HasPrefix(got[2], "open reproducer (panic: runtime error: index out of range") {
		t.Errorf("lenses after the failure: %q", got)
	}
	c.stop()
}

// TestFuzzStop: a run that finds nothing shows its live state in the lens
// and stops on window/workDoneProgress/cancel, leaving no process behind.
func TestFuzzStop(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes; skipped with -short")
	}
	root := fixture(t)
	c := start(t, root, lsp.Options{Fuzzbox: fuzzbox(t), Parallel: 1})
	test := filepath.Join(root, "nobug_test.go")
	from := c.mark()
	if _, err := c.execute(command.Fuzz, command.FuzzArgs{URI: string(uri(test)), Name: "FuzzLength"}); err != nil {
		t.Fatal(err)
	}
	begin, _ := c.waitFor(from, "$/progress", `"kind":"begin"`)
	c.waitFor(from, "$/progress", `execs/s`)
	if got := titles(c.lenses(test)); len(got) != 1 || !strings.Contains(got[0], "execs/s, corpus") {
		t.Errorf("lens while fuzzing: %q", got)
	}
	var p struct{ Token json.RawMessage }
	json.Unmarshal(*begin.Params, &p)
	c.notify("window/workDoneProgress/cancel", map[string]any{"token": p.Token})
	c.waitFor(from, "window/showMessage", "FuzzLength: stopped after")
	if e, _ := c.runEvent(from, command.StateProgress); e.Execs <= 0 || !strings.Contains(e.Message, "execs/s") {
		t.Errorf("progress event %+v", e)
	}
	c.runEvent(from, command.StateStopped)
	if ps := descendants(); len(ps) > 0 {
		t.Errorf("processes left behind: %q", ps)
	}
	c.stop()
}

// TestFuzzWarning: what a run reports that is not a failure (here the
// fuzz function changing its input) reaches the user as a message.
func TestFuzzWarning(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes; skipped with -short")
	}
	root := fixture(t)
	c := start(t, root, lsp.Options{Fuzzbox: fuzzbox(t), Parallel: 1, FuzzTime: 3 * time.Second})
	test := filepath.Join(root, "modify_test.go")
	from := c.mark()
	if _, err := c.execute(command.Fuzz, command.FuzzArgs{URI: string(uri(test)), Name: "FuzzModify"}); err != nil {
		t.Fatal(err)
	}
	m, _ := c.waitFor(from, "window/showMessage", "FuzzModify: elapsed")
	if !strings.Contains(string(*m.Params), "warning: the fuzz function changed its []byte argument 1") || !strings.Contains(string(*m.Params), `"type":2`) {
		t.Errorf("showMessage %s: want the input-modification warning, as a warning", *m.Params)
	}
	c.waitFor(from, "$/progress", `"kind":"end"`)
	c.stop()
}

// TestFuzzSetupFails: a fuzz test whose code before f.Fuzz fails in the
// fuzzing worker processes (here a fixed directory that the first process
// made and its cleanup removes only at its end) is the user's failure, told
// as such: not a failure of an input, nor the package's tests.
func TestFuzzSetupFails(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes; skipped with -short")
	}
	root := fixture(t)
	test := filepath.Join(root, "setup_test.go")
	src := `package planted

import (
	"os"
	"testing"
)

func FuzzSetup(f *testing.F) {
	if err := os.Mkdir("out", 0o777); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.Remove("out") })
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) {})
}
`
	if err := os.WriteFile(test, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	c := start(t, root, lsp.Options{Fuzzbox: fuzzbox(t), Parallel: 1, FuzzTime: time.Minute})
	from := c.mark()
	if _, err := c.execute(command.Fuzz, command.FuzzArgs{URI: string(uri(test)), Name: "FuzzSetup"}); err != nil {
		t.Fatal(err)
	}
	m, _ := c.waitFor(from, "window/showMessage", "FuzzSetup: ")
	if !strings.Contains(string(*m.Params), "its code before f.Fuzz failed in a fuzzing worker process") || !strings.Contains(string(*m.Params), `"type":1`) {
		t.Errorf("showMessage %s: want the setup failure, as an error", *m.Params)
	}
	if _, err := os.Stat(filepath.Join(root, "testdata", "fuzz", "FuzzSetup")); err == nil {
		t.Error("a reproducer was written for a setup failure")
	}
	c.stop()
}

// TestShutdownStopsFuzzing: shutdown and exit in the middle of a fuzz run
// stop it and leave no fuzzing process behind.
func TestShutdownStopsFuzzing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes; skipped with -short")
	}
	root := fixture(t)
	c := start(t, root, lsp.Options{Fuzzbox: fuzzbox(t), Parallel: 2})
	from := c.mark()
	if _, err := c.execute(command.Fuzz, command.FuzzArgs{URI: string(uri(filepath.Join(root, "nobug_test.go"))), Name: "FuzzLength"}); err != nil {
		t.Fatal(err)
	}
	c.waitFor(from, "$/progress", `execs/s`)
	if ps := descendants(); len(ps) < 3 {
		t.Errorf("want a coordinator and 2 workers running, got %q", ps)
	}
	t0 := time.Now()
	c.stop()
	t.Logf("shutdown and exit took %v", time.Since(t0))
	if ps := descendants(); len(ps) > 0 {
		t.Errorf("processes left behind: %q", ps)
	}
}

// descendants lists the command lines of this test process's descendants
// (the fuzzing binaries, their workers, go test), from /proc.
func descendants() []string {
	parent := map[int]int{}
	cmdline := map[int]string{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
		b, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		cmdline[pid] = strings.ReplaceAll(string(b), "\x00", " ")
	}
	var out []string
	for pid := range parent {
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == os.Getpid() {
				if !strings.Contains(cmdline[pid], "pgrep") && cmdline[pid] != "" {
					out = append(out, cmdline[pid])
				}
				break
			}
		}
	}
	return out
}
