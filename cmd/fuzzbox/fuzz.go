package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/build"
)

func init() {
	register(&command{name: "fuzz", short: "fuzz a package's fuzz test with the fuzzbox engine", run: runFuzz})
}

const fuzzUsage = `usage: fuzzbox fuzz [flags] [package]

Builds the package's test binary with fuzzbox's test main and coverage
instrumentation, runs the seed corpus, then fuzzes the fuzz test matched by
-fuzz until -fuzztime is up, a failure is found, or Ctrl-C. A failing input is
written to testdata/fuzz/<FuzzTest>/ where stock "go test -run" replays it.
Exit status: 0 nothing found, 1 a failure was found, 2 usage or build error.

Flags:
`

// fuzzFlags are the flags of fuzzbox fuzz.
type fuzzFlags struct {
	fuzz, run, tags, cachedir, dict string
	fuzztime, minimizetime          string
	parallel, rssLimitMB            int
	timeout                         time.Duration
	race, verbose, json, keepgoing  bool
}

func (f *fuzzFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.fuzz, "fuzz", "", "regexp matching the fuzz test to fuzz (required)")
	fs.StringVar(&f.fuzztime, "fuzztime", "", "time to fuzz (duration, or Nx for N executions over all workers); default until stopped")
	fs.StringVar(&f.minimizetime, "fuzzminimizetime", "60s", "time (or Nx executions) to minimize a failing input; 0x turns minimization off")
	fs.IntVar(&f.parallel, "parallel", 0, "worker processes (default GOMAXPROCS)")
	fs.StringVar(&f.run, "run", "", "regexp of tests to run before fuzzing, as go test -run (default all)")
	fs.BoolVar(&f.race, "race", false, "build with the race detector; a data race is a failure")
	fs.StringVar(&f.tags, "tags", "", "comma-separated build tags")
	fs.BoolVar(&f.verbose, "v", false, "verbose test output")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "per-input hang limit: an input running longer is a failure of kind hang")
	fs.IntVar(&f.rssLimitMB, "rss_limit_mb", 2048, "per-worker memory limit in MiB (0 = off): exceeding it is a failure of kind oom")
	fs.StringVar(&f.cachedir, "cachedir", "", "directory of the generated corpus (default: the user cache dir, fuzzbox/fuzz/<import path>)")
	fs.BoolVar(&f.json, "json", false, "print a JSON event stream (docs/engine.md) instead of text")
	fs.BoolVar(&f.keepgoing, "keepgoing", false, "keep fuzzing after a failure; write one reproducer per unique failure")
	fs.StringVar(&f.dict, "dict", "", "dictionary file in the AFL/libFuzzer format")
}

var nxRE = regexp.MustCompile(`^[0-9]+x$`)

// check validates flag values, returning a one-line reason.
func (f *fuzzFlags) check() error {
	if f.fuzz == "" {
		return errors.New("-fuzz is required")
	}
	if _, err := regexp.Compile(f.fuzz); err != nil {
		return fmt.Errorf("-fuzz: %v", err)
	}
	for name, v := range map[string]string{"-fuzztime": f.fuzztime, "-fuzzminimizetime": f.minimizetime} {
		if v == "" || nxRE.MatchString(v) {
			continue
		}
		if d, err := time.ParseDuration(v); err != nil || d < 0 {
			return fmt.Errorf("%s: %q is neither a duration nor Nx", name, v)
		}
	}
	if f.parallel < 0 || f.rssLimitMB < 0 || f.timeout <= 0 {
		return errors.New("-parallel and -rss_limit_mb must be >= 0, -timeout > 0")
	}
	return nil
}

func runFuzz(args []string, stdout, stderr io.Writer) int {
	var f fuzzFlags
	fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, fuzzUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return exitOK
		}
		return fuzzUsageError(stderr, fs, err.Error())
	}
	if err := f.check(); err != nil {
		return fuzzUsageError(stderr, fs, err.Error())
	}
	if fs.NArg() > 1 {
		return fuzzUsageError(stderr, fs, "one package at a time")
	}
	pkg := "."
	if fs.NArg() == 1 {
		pkg = fs.Arg(0)
	}
	return (&fuzzRun{flags: f, pkg: pkg, stdout: stdout, stderr: stderr}).run()
}

func fuzzUsageError(stderr io.Writer, fs *flag.FlagSet, msg string) int {
	fmt.Fprintf(stderr, "fuzzbox fuzz: %s\n%s", msg, fuzzUsage)
	fs.SetOutput(stderr)
	fs.PrintDefaults()
	return exitUsage
}

// fuzzRun is one invocation of fuzzbox fuzz.
type fuzzRun struct {
	flags          fuzzFlags
	pkg            string
	stdout, stderr io.Writer
	out            *lockedWriter // serialized stdout (JSON mode mixes two sources)
	start          time.Time
}

func (r *fuzzRun) run() int {
	r.start = time.Now()
	r.out = &lockedWriter{w: r.stdout}
	tmp, err := os.MkdirTemp("", "fuzzbox-fuzz-")
	if err != nil {
		return r.fail(err)
	}
	defer os.RemoveAll(tmp)
	self, err := os.Executable()
	if err != nil {
		return r.fail(err)
	}
	r.event(map[string]any{"type": "build", "package": r.pkg})
	res, err := build.Build(context.Background(), build.Options{
		Package: r.pkg, Out: filepath.Join(tmp, "fuzz.test"), Race: r.flags.race, Tags: r.flags.tags,
		Toolexec: []string{self, "toolexec"}, Stderr: r.stderr,
	})
	if err != nil {
		return r.fail(err)
	}
	target, err := r.target(res)
	if err != nil {
		return r.fail(err)
	}
	return r.exec(res, target)
}

// fail reports err in one line and returns the usage/build exit code.
func (r *fuzzRun) fail(err error) int {
	r.event(map[string]any{"type": "done", "error": oneLine(err)})
	fmt.Fprintf(r.stderr, "fuzzbox fuzz: %s\n", oneLine(err))
	return exitUsage
}

// target lists the binary's fuzz tests and returns the one -fuzz matches.
func (r *fuzzRun) target(res *build.Result) (string, error) {
	cmd := exec.Command(res.Binary, "-test.list=^Fuzz")
	cmd.Dir = res.PkgDir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("listing the fuzz tests of %s: %w", res.ImportPath, err)
	}
	re := regexp.MustCompile(r.flags.fuzz)
	var all, matched []string
	for _, name := range strings.Fields(string(out)) {
		if !strings.HasPrefix(name, "Fuzz") {
			continue
		}
		all = append(all, name)
		if re.MatchString(name) {
			matched = append(matched, name)
		}
	}
	switch {
	case len(all) == 0:
		return "", fmt.Errorf("%s has no fuzz tests", res.ImportPath)
	case len(matched) == 0:
		return "", fmt.Errorf("-fuzz=%s matches no fuzz test in %s (fuzz tests: %s)", r.flags.fuzz, res.ImportPath, strings.Join(all, ", "))
	case len(matched) > 1:
		return "", fmt.Errorf("will not fuzz, -fuzz matches more than one fuzz test: [%s]", strings.Join(matched, " "))
	}
	return matched[0], nil
}

// testArgs returns the test binary's arguments for fuzzing target.
func (r *fuzzRun) testArgs(res *build.Result, target string) ([]string, error) {
	f := r.flags
	cache := f.cachedir
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no -cachedir and no user cache dir: %w", err)
		}
		cache = filepath.Join(dir, "fuzzbox", "fuzz", res.ImportPath)
	}
	cache, _ = filepath.Abs(cache)
	args := []string{
		"-test.fuzz=^" + target + "$", "-test.fuzzcachedir=" + cache, "-test.timeout=0",
		"-test.fuzzminimizetime=" + f.minimizetime,
		"-fuzzbox.timeout=" + f.timeout.String(), "-fuzzbox.rss_limit_mb=" + strconv.Itoa(f.rssLimitMB),
	}
	if f.fuzztime != "" {
		args = append(args, "-test.fuzztime="+f.fuzztime)
	}
	if f.parallel > 0 {
		args = append(args, "-test.parallel="+strconv.Itoa(f.parallel))
	}
	if f.run != "" {
		args = append(args, "-test.run="+f.run)
	}
	if f.verbose {
		args = append(args, "-test.v")
	}
	if f.keepgoing {
		args = append(args, "-fuzzbox.keepgoing")
	}
	if f.dict != "" {
		abs, err := filepath.Abs(f.dict)
		if err != nil {
			return nil, err
		}
		args = append(args, "-fuzzbox.dict="+abs)
	}
	return args, nil
}

// exec runs the fuzzing binary in the package directory and returns the
// exit code: 0 nothing found, 1 a failure (or failing tests), 2 otherwise.
func (r *fuzzRun) exec(res *build.Result, target string) int {
	args, err := r.testArgs(res, target)
	if err != nil {
		return r.fail(err)
	}
	cmd := exec.Command(res.Binary, args...)
	cmd.Dir = res.PkgDir
	cmd.Stderr = r.stderr
	var wait []func()
	if r.flags.json {
		evR, evW, err := os.Pipe()
		if err != nil {
			return r.fail(err)
		}
		cmd.ExtraFiles = []*os.File{evW}
		cmd.Args = append(cmd.Args, "-fuzzbox.events_fd=3")
		outR, outW := io.Pipe()
		cmd.Stdout = outW
		defer evW.Close()
		wait = append(wait, r.copyEvents(evR), r.wrapOutput(outR, target))
		defer outW.Close()
	} else {
		cmd.Stdout = r.stdout
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		return r.fail(err)
	}
	if f, ok := cmd.ExtraFiles, true; ok && len(f) > 0 {
		f[0].Close() // the child has its copy
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	err = r.waitChild(cmd, done, sigs)
	if w, ok := cmd.Stdout.(*io.PipeWriter); ok {
		w.Close()
	}
	for _, fn := range wait {
		fn()
	}
	return childExit(err)
}

// waitChild waits for the fuzzing binary. The terminal delivers Ctrl-C to
// the whole process group, so the child is already stopping; it gets 5 s
// to write what it found before it is killed.
func (r *fuzzRun) waitChild(cmd *exec.Cmd, done <-chan error, sigs <-chan os.Signal) error {
	select {
	case err := <-done:
		return err
	case sig := <-sigs:
		cmd.Process.Signal(sig) // if the signal came from kill, not a terminal
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			return <-done
		}
	}
}

func childExit(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return exitFinding
	}
	return exitUsage
}

// copyEvents forwards the engine's JSON events to stdout.
func (r *fuzzRun) copyEvents(rd io.ReadCloser) func() {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer rd.Close()
		sc := bufio.NewScanner(rd)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			r.out.writeLine(sc.Bytes())
		}
	}()
	return func() { <-done }
}

// wrapOutput turns the test binary's stdout into output events.
func (r *fuzzRun) wrapOutput(rd io.Reader, target string) func() {
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(rd)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			r.event(map[string]any{"type": "output", "target": target, "output": sc.Text() + "\n"})
		}
	}()
	return func() { <-done }
}

// event writes a driver-side event in JSON mode (no-op otherwise).
func (r *fuzzRun) event(e map[string]any) {
	if !r.flags.json {
		return
	}
	now := time.Now()
	e["time"] = now
	e["elapsed_ms"] = now.Sub(r.start).Milliseconds()
	b, _ := json.Marshal(e)
	r.out.writeLine(b)
}

// lockedWriter serializes whole lines from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) writeLine(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Write(append(append([]byte(nil), b...), '\n'))
}
