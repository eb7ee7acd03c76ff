package driver

// Replay runs a fuzz test's seed corpus, or one corpus entry, with stock
// go test, the way a person checks a reproducer: go test -run=^FuzzX$ (every
// f.Add seed and testdata/fuzz/FuzzX file) or go test -run=^FuzzX$/^NAME$
// (exactly that file). Front ends (the LSP sidecar's "run seeds" and "rerun
// this input") share it, and so do the driver's own checks of a failure
// with go test (confirm.go, prefuzz.go).

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver/build"
	"github.com/fuzzbox/fuzzbox/event"
)

// ReplayResult is the outcome of a replay that built and ran.
type ReplayResult struct {
	Passed  bool   // the test passed (exit status 0)
	Kind    string // when it failed: panic, fail, fatal, hang, race or exit (as the engine's failure kinds)
	Message string // when it failed: the panic value, the t.Error text or the runtime's report, first lines
	Entry   string // the failing input's subtest name ("crash1", "seed#0"), when go test names it
	// Killed says a signal from outside ended the test binary (SIGKILL:
	// the OOM killer, a user; SIGTERM, SIGINT, SIGHUP): no verdict on
	// the input.
	Killed bool
	// Frame is the first stack frame of the failure inside the package's
	// module (not the standard library, not dependencies); zero when none is
	// known. For kind "fail" it is the file:line of the t.Error call.
	Frame  Frame
	Output string // go test's complete output
}

// A Frame is a source position.
type Frame struct {
	File string // absolute path
	Line int    // 1-based
}

// Replay runs target t's seed corpus (entry ""), its one seed file
// testdata/fuzz/FuzzX/entry, or its f.Add values named entry by go test
// (seed#0, when no such file exists) with stock go test, in t.Dir, and
// reports the result. Of cfg it reads Tags, Race, Vet, ReplayLimit (go test -timeout: a
// run that hangs fails with kind hang), Short, Verbose and TestArgs. It returns an error when the entry
// does not exist, the package does not build or go test cannot run; a
// failing test is a result, not an error. Cancelling ctx stops go test.
func Replay(ctx context.Context, cfg Config, t Target, entry string) (ReplayResult, error) {
	return replayAt(ctx, cfg, t, entry, "")
}

// replayAt is Replay with entry's file at path, when not "": a fuzz test that
// changes directory before f.Fuzz (f.Chdir) has its seed corpus, and the
// reproducers go test and the engine write, under that directory, where
// go test -run finds them too.
func replayAt(ctx context.Context, cfg Config, t Target, entry, path string) (ReplayResult, error) {
	if !corpus.IsFuzzTestName(t.Name) {
		return ReplayResult{}, fmt.Errorf("driver: replay: %q is not a fuzz test name", t.Name)
	}
	dir, err := filepath.Abs(t.Dir)
	if err != nil {
		return ReplayResult{}, fmt.Errorf("driver: replay: %w", err)
	}
	run := "^" + t.Name + "$"
	if entry != "" {
		if path == "" {
			path = filepath.Join(dir, "testdata", "fuzz", t.Name, entry)
		}
		if err := checkEntry(path, entry); err != nil {
			return ReplayResult{}, err
		}
		run += "/^" + event.EntryPattern(entry) + "$"
	}
	out, code, built, err := goTest(ctx, cfg, dir, run)
	switch {
	case err != nil:
		return ReplayResult{}, err
	case !built:
		return ReplayResult{Output: out}, fmt.Errorf("driver: replay: build failed: %s\n%s", build.Summary([]byte(out), errors.New("no output")), strings.TrimSpace(out))
	case code == 0 && strings.Contains(out, noTestsToRun):
		// Not a pass: nothing ran (the fuzz test is behind a build tag
		// the build did not set, or the entry is not there).
		return ReplayResult{Output: out}, fmt.Errorf("driver: replay: go test ran nothing for -run=%s: is %s in the package as built (its build tags)?", run, t.Name)
	case code == 0:
		return ReplayResult{Passed: true, Output: out}, nil
	}
	res := parseFailure(out, t.Name, CodeRoot(dir), dir)
	res.Output, res.Killed = out, killedRE.MatchString(out)
	return res, nil
}

// noTestsToRun is what the testing package says when -run matched nothing.
const noTestsToRun = "testing: warning: no tests to run"

// killedRE matches go test's line for a test binary a signal from outside
// ended (its own crashes exit with a status).
var killedRE = regexp.MustCompile(`(?m)^signal: (killed|terminated|interrupt|hangup)$`)

// addedSeedRE matches the names go test gives f.Add's values.
var addedSeedRE = regexp.MustCompile(`^seed#[0-9]+$`)

// checkEntry refuses entry names that are not plain files of the seed
// directory, and reports a missing or malformed file (entry's, at path)
// before go test runs.
func checkEntry(path, entry string) error {
	if entry != filepath.Base(entry) || entry == "." || entry == ".." || filepath.Base(path) != entry {
		return fmt.Errorf("driver: replay: entry %q is not a file name", entry)
	}
	_, err := corpus.ReadFile(path, nil)
	if errors.Is(err, fs.ErrNotExist) && addedSeedRE.MatchString(entry) {
		return nil // f.Add's values, which go test names so
	}
	if err != nil {
		return fmt.Errorf("driver: replay: %w", err)
	}
	return nil
}

// goTest runs the package's stock test binary in dir, as go test would
// (cfg's Tags, Race and ReplayLimit): Config.StockBinary in StockEnv, or one
// it builds with go test -c. Running the binary directly (not under go test)
// means cancelling ctx stops the one process that runs the test, leaving no
// orphan behind. It returns the combined output, the exit status and whether
// there was a binary to run. env is added to the test binary's environment.
func goTest(ctx context.Context, cfg Config, dir, run string, env ...string) (out string, code int, built bool, err error) {
	bin := cfg.StockBinary
	switch {
	case bin != "" && cfg.Race:
		return "", -1, false, errors.New("driver: replay: the stock test binary (-stockbin) is not race-built")
	case bin == "":
		tmp, release, err := workDir("replay")
		if err != nil {
			return "", -1, false, fmt.Errorf("driver: replay: %w", err)
		}
		defer release()
		if bin, out, code, err = buildStock(ctx, cfg, dir, tmp); bin == "" {
			return out, code, false, err
		}
	}
	cmd := testCmd(dir, bin, cfg.userArgs(), cfg.replayArgs(run)...)
	if cfg.StockBinary != "" && cfg.StockEnv != nil {
		cmd.Env = ChildEnv(slices.Clone(cfg.StockEnv))
	}
	cmd.Env = append(cmd.Env, env...)
	out, code, err = combined(ctx, cmd)
	if st := cmd.ProcessState; err == nil && st != nil && !st.Exited() {
		out += st.String() + "\n" // "signal: killed", as go test says it
	}
	return out, code, true, replayErr(err)
}

// buildStock builds dir's test binary with go test -c into the directory
// tmp. bin is empty when there is none to run; out and code say why.
func buildStock(ctx context.Context, cfg Config, dir, tmp string) (bin, out string, code int, err error) {
	// Into a directory: go test -c names the binary as go test does
	// (pkg.test), which the code under test sees as os.Args[0].
	args := append([]string{"test", "-c", "-o", tmp + string(filepath.Separator)}, cfg.stockBuildFlags()...)
	if cfg.Race {
		args = append(args, "-race")
	}
	out, code, err = combined(ctx, goCmd(ctx, dir, append(args, ".")...))
	if err != nil || code != 0 {
		return "", out, code, replayErr(err)
	}
	bins, _ := filepath.Glob(filepath.Join(tmp, "*.test*")) // .test.exe on Windows
	if len(bins) != 1 {
		return "", out + "no test files\n", 1, nil // go test -c writes nothing for a package without tests
	}
	return bins[0], out, code, nil
}

// canReplay reports whether the driver has a stock test binary to replay
// failures with: one it builds with go test -c, or Config.StockBinary.
func (c *Config) canReplay() bool {
	return c.Binary == "" || c.StockBinary != ""
}

func replayErr(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("driver: replay: %w", err)
}

// ModuleRoot returns the directory of the go.mod governing dir, or dir when
// there is none. Front ends that show a failure's frames use it too.
func ModuleRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// CodeRoot returns the directory under which a failure's stack frames are
// the user's code, for the package in dir: the directory of the go.work
// that governs dir (GOWORK's, from the environment or go env -w, or the
// first found above dir, as the go command finds it) when dir's module
// lies under it, else ModuleRoot(dir). A panic raised in a neighbour module of the workspace
// was placed at the fuzz test's line instead of where it was raised.
func CodeRoot(dir string) string {
	root := ModuleRoot(dir)
	work := build.UserGoEnv(os.Environ(), "GOWORK")
	switch {
	case work == "off":
		return root
	case work != "" && work != "auto":
		if _, ok := within(root, filepath.Dir(work)); ok && filepath.IsAbs(work) {
			return filepath.Dir(work)
		}
		return root
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			if _, ok := within(root, d); ok {
				return d
			}
			return root
		}
		if filepath.Dir(d) == d {
			return root
		}
	}
}

var (
	failLine  = regexp.MustCompile(`^\s*--- FAIL: (\S+)`)
	frameLine = regexp.MustCompile(`^\t(/.*\.go):(\d+)`)
	logLine   = regexp.MustCompile(`^\s+(\S+\.go):(\d+): (.*)`)
)

// parseFailure reads go test's output of a failed run: the failing subtest,
// the kind (panic, fatal error, timeout, race, t.Error, exit) and the first
// frame inside root.
func parseFailure(out, fuzz, root, dir string) ReplayResult {
	var res ReplayResult
	lines := strings.Split(out, "\n")
	var logs []string
	for _, l := range lines {
		if m := failLine.FindStringSubmatch(l); m != nil {
			if name, ok := strings.CutPrefix(m[1], fuzz+"/"); ok {
				res.Entry = name
			}
			continue
		}
		if m := logLine.FindStringSubmatch(l); m != nil {
			if res.Frame.File == "" {
				n, _ := strconv.Atoi(m[2])
				res.Frame = Frame{inDir(dir, m[1]), n}
			}
			logs = append(logs, m[3])
		}
	}
	res.Kind, res.Message = kindOf(lines, logs)
	if res.Kind != event.KindFail {
		if f, ok := firstFrame(lines, root); ok {
			res.Frame = f
		}
	}
	return res
}

// inDir returns the file a t.Error report names in dir: its base name, or
// the whole path under go test's -fullpath.
func inDir(dir, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(dir, file)
}

// kindOf classifies the failure and returns its message.
func kindOf(lines, logs []string) (kind, msg string) {
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "panic: test timed out after"):
			return event.KindHang, l
		case strings.HasPrefix(l, "WARNING: DATA RACE"), strings.Contains(l, "race detected during execution of test"):
			return event.KindRace, strings.Join(nonEmpty(lines[i:min(i+4, len(lines))]), "\n")
		case strings.HasPrefix(l, "fatal error: "):
			return event.KindFatal, l
		case strings.HasPrefix(l, "panic: "):
			return event.KindPanic, strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(l, "panic: "), " [recovered, repanicked]"), " [recovered]")
		}
	}
	if len(logs) > 0 {
		return event.KindFail, strings.Join(logs, "\n")
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "exit status ") {
			return event.KindExit, l
		}
	}
	return event.KindFail, "the test failed"
}

// Patterns for FailureFrame: a stack frame's file:line (a tab, or spaces
// when the message was indented), and the file:line a t.Error or t.Fatal
// report starts with.
var (
	anyFrameLine = regexp.MustCompile(`(?m)^\s+(/.+?\.go):(\d+)`)
	reportLine   = regexp.MustCompile(`(?m)^\s*(\w[\w.\-]*\.go):(\d+): `)
)

// FailureFrame returns where a failure's message (a failure event's, of a
// fuzz test in the package directory dir) puts it: the first stack frame
// under root (a panic's, a fatal error's), or the file:line a t.Error or
// t.Fatal report starts with. ok is false when it names neither (a hang
// outside root, an exit). CI's SARIF report and the editor's diagnostics
// place failures with it.
func FailureFrame(msg, dir, root string) (f Frame, ok bool) {
	for _, m := range anyFrameLine.FindAllStringSubmatch(msg, -1) {
		if strings.HasPrefix(m[1], root+string(filepath.Separator)) {
			n, _ := strconv.Atoi(m[2])
			return Frame{m[1], n}, true
		}
	}
	if m := reportLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[2])
		return Frame{filepath.Join(dir, m[1]), n}, true
	}
	return Frame{}, false
}

// firstFrame returns the first stack frame under root, skipping the
// frames of the toolchain (GOROOT lies outside any user module).
func firstFrame(lines []string, root string) (Frame, bool) {
	for _, l := range lines {
		m := frameLine.FindStringSubmatch(l)
		if m == nil || !strings.HasPrefix(m[1], root+string(filepath.Separator)) {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		return Frame{m[1], n}, true
	}
	return Frame{}, false
}

func nonEmpty(ls []string) []string {
	var out []string
	for _, l := range ls {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}
