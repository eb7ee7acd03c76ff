package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The compat set runs real fuzz tests as a user would, with fuzzbox beside
// stock go test, and checks what must hold on every real module:
//   - the package's tests and seeds pass and fail in fuzzbox's binary as
//     under go test (top-level results compared, by name);
//   - fuzzing -compattime raises no internal error;
//   - every failure fuzzbox reports is one stock go test reproduces
//     (its reproducer replayed with go test -run=^FuzzX$/^NAME$);
//
// and measures fuzzbox's execs/s against go test -fuzz's over the same time.

// A compatRow is the outcome for one fuzz test, as written to -o.
type compatRow struct {
	Module   string   `json:"module"`
	Package  string   `json:"package"`
	Fuzz     string   `json:"fuzz"`
	Tests    string   `json:"tests"`              // "agree (N)", or "DIFFER: ..." / "not run: ..."
	Agree    bool     `json:"agree"`              // tests and seeds agree with go test
	Internal []string `json:"internal,omitempty"` // internal errors (tests phase and fuzzing), first lines
	// Findings are fuzzbox's failures while fuzzing, each "kind: message
	// (go test reproduces: yes|no|not replayable)".
	Findings     []string `json:"findings,omitempty"`
	Unreproduced int      `json:"unreproduced"` // findings go test does not reproduce
	FuzzboxRate  float64  `json:"fuzzbox_execs_per_sec"`
	NativeRate   float64  `json:"native_execs_per_sec"`
	NativeFound  string   `json:"native_found,omitempty"` // native's failure, "kind: message"
	Note         string   `json:"note,omitempty"`
}

// clean reports whether the row meets every requirement.
func (r compatRow) clean() bool { return r.Agree && len(r.Internal) == 0 && r.Unreproduced == 0 }

// compatEnv is what every package of one compat run shares.
type compatEnv struct {
	cfg     config
	fuzzbox string
	work    string // copies of the modules, scratch directory for std packages
	logDir  string
	repro   string // reproducers found, kept (results dir)
	stderr  io.Writer
}

// runCompat runs the compat set and prints its table.
func runCompat(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	pkgs, err := readCompatList(compatList)
	if err != nil {
		return err
	}
	pkgs = selectCompat(pkgs, cfg.targets)
	if len(pkgs) == 0 {
		return fmt.Errorf("no package of %s matches -targets", compatList)
	}
	// Each module is its own main module, as for a user who works in it: a
	// go.work that came in its zip (naming nested modules the zip leaves
	// out) is ignored, by every command, as fuzzbox's build ignores it.
	os.Setenv("GOWORK", "off")
	env := &compatEnv{cfg: cfg, fuzzbox: cfg.fuzzbox, stderr: stderr}
	env.logDir = strings.TrimSuffix(cfg.out, filepath.Ext(cfg.out)) + "-logs"
	env.repro = strings.TrimSuffix(cfg.out, filepath.Ext(cfg.out)) + "-reproducers"
	if err := os.MkdirAll(env.logDir, 0o777); err != nil {
		return err
	}
	if env.fuzzbox == "" {
		bin, cleanup, err := buildFuzzbox(ctx)
		if err != nil {
			return err
		}
		defer cleanup()
		env.fuzzbox = bin
	}
	if env.work, err = os.MkdirTemp("", "fuzzbox-compat-"); err != nil {
		return err
	}
	defer os.RemoveAll(env.work)
	var rows []compatRow
	for _, p := range pkgs {
		if ctx.Err() != nil {
			break
		}
		for _, r := range env.runPackage(ctx, p) {
			fmt.Fprintf(stderr, "compat: %s\n", compatLine(r))
			rows = append(rows, r)
		}
		if err := writeCompatResults(cfg.out, cfg, rows); err != nil {
			return err
		}
	}
	printCompatTable(stdout, cfg, rows)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var unclean []string
	for _, r := range rows {
		if !r.clean() {
			unclean = append(unclean, r.Module+" "+r.Package+" "+r.Fuzz)
		}
	}
	if len(unclean) > 0 {
		return fmt.Errorf("%d of %d fuzz tests do not run as under go test: %s", len(unclean), len(rows), strings.Join(unclean, "; "))
	}
	return nil
}

// runPackage checks one package: its tests once, then each fuzz test.
func (env *compatEnv) runPackage(ctx context.Context, p compatPkg) []compatRow {
	dir, target, err := env.packageDir(ctx, p)
	fail := func(note string) []compatRow {
		var rows []compatRow
		for _, fz := range p.fuzz {
			rows = append(rows, compatRow{Module: p.module, Package: p.pkg, Fuzz: fz, Tests: "not run", Note: note})
		}
		return rows
	}
	if err != nil {
		return fail(err.Error())
	}
	tests, agree, internal := env.compareTests(ctx, p, dir, target)
	var rows []compatRow
	for _, fz := range p.fuzz {
		r := compatRow{Module: p.module, Package: p.pkg, Fuzz: fz, Tests: tests, Agree: agree, Internal: internal}
		env.fuzzOne(ctx, p, dir, target, &r)
		rows = append(rows, r)
	}
	return rows
}

// packageDir returns where a package's commands run and the package
// argument they take: a copy of the module out of the module cache (made
// once, writable, so that reproducers can be written), or a standard
// library package's own directory in GOROOT.
func (env *compatEnv) packageDir(ctx context.Context, p compatPkg) (dir, target string, err error) {
	if p.std() {
		// go test -fuzz takes a standard library package only in its
		// directory (the std module must be the main module).
		return filepath.Join(goroot(), "src", filepath.FromSlash(p.pkg)), ".", nil
	}
	root := filepath.Join(env.work, strings.NewReplacer("/", "_", "@", "_").Replace(p.module))
	if _, err := os.Stat(root); err != nil {
		if err := env.copyModule(ctx, p.module, root); err != nil {
			return "", "", err
		}
	}
	return filepath.Join(root, filepath.FromSlash(p.pkg)), ".", nil
}

// copyModule downloads module@version through the module proxy and copies
// it to root, writable.
func (env *compatEnv) copyModule(ctx context.Context, module, root string) error {
	out, err := exec.CommandContext(ctx, "go", "mod", "download", "-json", module).Output()
	if err != nil {
		return fmt.Errorf("go mod download %s: %v", module, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return fmt.Errorf("go mod download %s: %s", module, firstNonEmpty(info.Error, string(out)))
	}
	if err := os.CopyFS(root, os.DirFS(info.Dir)); err != nil {
		return fmt.Errorf("copying %s: %w", module, err)
	}
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	})
}

var resultLineRE = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+)`)

// testResults collects the top-level "--- PASS/FAIL/SKIP: Name" lines of
// go test -v output: the first result of each name.
type testResults map[string]string

func (t testResults) line(s string) {
	if m := resultLineRE.FindStringSubmatch(s); m != nil {
		if _, seen := t[m[2]]; !seen {
			t[m[2]] = m[1]
		}
	}
}

// diff lists the names whose results differ, "Name: go test X, fuzzbox Y".
func (t testResults) diff(fuzzbox testResults) []string {
	names := map[string]bool{}
	for n := range t {
		names[n] = true
	}
	for n := range fuzzbox {
		names[n] = true
	}
	var out []string
	for n := range names {
		if a, b := orNone(t[n]), orNone(fuzzbox[n]); a != b {
			out = append(out, fmt.Sprintf("%s: go test %s, fuzzbox %s", n, a, b))
		}
	}
	sort.Strings(out)
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// compareTests runs the package's tests and seeds with go test -v and in
// fuzzbox's binary (fuzzing the first fuzz test for one execution, which
// runs them all first, as go test -fuzz does) and compares the results.
func (env *compatEnv) compareTests(ctx context.Context, p compatPkg, dir, target string) (string, bool, []string) {
	stock := testResults{}
	code, err := env.run(ctx, dir, env.logName(p, "", "gotest"), 15*time.Minute, stock.line,
		"go", "test", "-count=1", "-v", "-run=.", "-tags="+p.tags, target)
	if err != nil {
		return "not run: go test: " + err.Error(), false, nil
	}
	fb := &compatEvents{results: testResults{}}
	fbArgs := []string{env.fuzzbox, "fuzz", "-json", "-v", "-tags=" + p.tags, "-fuzz=^" + p.fuzz[0] + "$", "-fuzztime=1x", "-cachedir=" + filepath.Join(env.work, "cache-tests"), target}
	if _, err := env.run(ctx, dir, env.logName(p, "", "fuzzbox-tests"), 20*time.Minute, fb.line, fbArgs...); err != nil {
		return "not run: fuzzbox: " + err.Error(), false, fb.internal
	}
	env.cleanReproducers(dir, p)
	if len(stock) == 0 {
		return fmt.Sprintf("not compared: go test printed no result (exit %d)", code), false, fb.internal
	}
	if d := stock.diff(fb.results); len(d) > 0 {
		return "DIFFER: " + strings.Join(d, "; "), false, fb.internal
	}
	return fmt.Sprintf("agree (%d)", len(stock)), true, fb.internal
}

// fuzzOne fuzzes one fuzz test with fuzzbox, replays what it found with go
// test, and fuzzes it with go test -fuzz for the same time.
func (env *compatEnv) fuzzOne(ctx context.Context, p compatPkg, dir, target string, r *compatRow) {
	budget := env.cfg.compattime.String()
	par := strconv.Itoa(env.cfg.parallel)
	cache, _ := os.MkdirTemp(env.work, "cache-")
	defer os.RemoveAll(cache)
	ev := &compatEvents{results: testResults{}, rates: newFuzzboxParser(nil)}
	_, err := env.run(ctx, dir, env.logName(p, r.Fuzz, "fuzzbox"), 2*env.cfg.compattime+10*time.Minute, ev.line,
		env.fuzzbox, "fuzz", "-json", "-tags="+p.tags, "-run=^$", "-fuzz=^"+r.Fuzz+"$", "-fuzztime="+budget, "-parallel="+par,
		"-fuzzminimizetime=10s", "-cachedir="+cache, target)
	if err != nil {
		r.Note = "fuzzbox: " + err.Error()
	}
	var rr runResult
	ev.rates.result(&rr)
	r.FuzzboxRate = rr.ExecsPerSec
	r.Internal = append(r.Internal, ev.internal...)
	for _, f := range ev.failures {
		r.Findings = append(r.Findings, env.replayFinding(ctx, p, dir, target, r, f))
	}
	if n, _ := filepath.Glob(filepath.Join(cache, "unreproduced", "*", "*")); len(n) > 0 {
		r.Note = strings.TrimSpace(r.Note + fmt.Sprintf(" fuzzbox set aside %d input(s) go test passes", len(n)))
	}
	env.cleanReproducers(dir, p)
	nat := newNativeParser()
	ncache, _ := os.MkdirTemp(env.work, "cache-")
	defer os.RemoveAll(ncache)
	_, err = env.run(ctx, dir, env.logName(p, r.Fuzz, "native"), 2*env.cfg.compattime+10*time.Minute, func(s string) { nat.line(0, s) },
		"go", "test", "-tags="+p.tags, "-run=^$", "-fuzz=^"+r.Fuzz+"$", "-fuzztime="+budget, "-parallel="+par, target, "-test.fuzzcachedir="+ncache)
	if err != nil {
		r.Note = strings.TrimSpace(r.Note + " native: " + err.Error())
	}
	var nr runResult
	nat.result(&nr)
	r.NativeRate = nr.ExecsPerSec
	if nr.Failed {
		r.NativeFound = nr.Kind + ": " + nr.Message
	}
	env.cleanReproducers(dir, p)
}

// replayFinding replays a fuzzbox failure's reproducer with stock go test,
// keeps a copy of it, and describes it.
func (env *compatEnv) replayFinding(ctx context.Context, p compatPkg, dir, target string, r *compatRow, f event) string {
	desc := f.Kind + ": " + firstLine(f.Message)
	if f.Reproducer == "" {
		return desc + " (no reproducer)"
	}
	path := f.Reproducer
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	name := filepath.Base(path)
	keep := filepath.Join(env.repro, strings.NewReplacer("/", "_", "@", "_").Replace(p.name()), r.Fuzz)
	if err := os.MkdirAll(keep, 0o777); err == nil {
		if data, err := os.ReadFile(path); err == nil {
			os.WriteFile(filepath.Join(keep, name), data, 0o666)
		}
	}
	if f.Kind == "hang" || f.Kind == "oom" {
		return desc + " (go test reproduces: not replayable, a limit only fuzzbox sets)"
	}
	code, err := env.run(ctx, dir, env.logName(p, r.Fuzz, "replay-"+name), 5*time.Minute, func(string) {},
		"go", "test", "-count=1", "-tags="+p.tags, "-run=^"+r.Fuzz+"$/^"+regexp.QuoteMeta(name)+"$", target)
	switch {
	case err != nil:
		return desc + " (go test reproduces: could not run: " + err.Error() + ")"
	case code == 0:
		r.Unreproduced++
		return desc + " (go test reproduces: NO)"
	}
	return desc + " (go test reproduces: yes)"
}

// cleanReproducers removes the reproducers runs wrote, so that the next run
// starts from the package's own seeds. A module copy's testdata/fuzz starts
// as the module has it; a standard library package's only new files go.
func (env *compatEnv) cleanReproducers(dir string, p compatPkg) {
	root := filepath.Join(dir, "testdata", "fuzz")
	for _, fz := range p.fuzz {
		d := filepath.Join(root, fz)
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if isGenerated(e.Name()) && !env.original(p, fz, e.Name()) {
				os.Remove(filepath.Join(d, e.Name()))
			}
		}
	}
}

var generatedNameRE = regexp.MustCompile(`^[0-9a-f]{16}$`)

// isGenerated reports whether name is a reproducer name go test and fuzzbox
// write (the first 16 hex digits of a SHA-256).
func isGenerated(name string) bool { return generatedNameRE.MatchString(name) }

// original reports whether the file is one of the module's (or GOROOT's)
// own seeds: present in the module cache's pristine copy.
func (env *compatEnv) original(p compatPkg, fuzz, name string) bool {
	var base string
	if p.std() {
		base = filepath.Join(goroot(), "src", filepath.FromSlash(p.pkg))
	} else {
		out, err := exec.Command("go", "mod", "download", "-json", p.module).Output()
		var info struct{ Dir string }
		if err != nil || json.Unmarshal(out, &info) != nil || info.Dir == "" {
			return true // unsure: keep it
		}
		base = filepath.Join(info.Dir, filepath.FromSlash(p.pkg))
	}
	if p.std() {
		// GOROOT is where the runs write: its pristine seeds are the ones
		// in git's sense, unknown here; keep only files older than the run.
		fi, err := os.Stat(filepath.Join(base, "testdata", "fuzz", fuzz, name))
		return err == nil && fi.ModTime().Before(compatStart)
	}
	_, err := os.Stat(filepath.Join(base, "testdata", "fuzz", fuzz, name))
	return err == nil
}

// compatStart is when this process started: standard library reproducers
// newer than it were written by its runs.
var compatStart = time.Now()

func goroot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// run runs argv in dir with a timeout, feeding each line of its combined
// output to line and to the log file. It returns the exit code; err is set
// when it could not run or was killed.
func (env *compatEnv) run(ctx context.Context, dir, log string, timeout time.Duration, line func(string), argv ...string) (int, error) {
	p := funcParser(line)
	code, _, _, err := execute(ctx, dir, argv, true, p, log, timeout)
	if err == nil && code < 0 {
		err = fmt.Errorf("%s did not exit normally", filepath.Base(argv[0]))
	}
	return code, err
}

// funcParser adapts a line function to lineParser.
type funcParser func(string)

func (f funcParser) line(_ time.Duration, s string) { f(s) }
func (f funcParser) result(*runResult)              {}

func (env *compatEnv) logName(p compatPkg, fuzz, what string) string {
	name := strings.NewReplacer("/", "_", "@", "_").Replace(p.name())
	if fuzz != "" {
		name += "-" + fuzz
	}
	return filepath.Join(env.logDir, name+"-"+what+".log")
}

// compatEvents reads fuzzbox fuzz -json output: the tests' result lines
// (output events), internal errors and failures, and, if rates is set, the
// fuzzing rate.
type compatEvents struct {
	results  testResults
	internal []string
	failures []event
	rates    *fuzzboxParser
}

func (c *compatEvents) line(s string) {
	var e event
	if err := json.Unmarshal([]byte(s), &e); err != nil || e.Type == "" {
		c.results.line(s) // the fuzzing binary's standard error
		return
	}
	if c.rates != nil {
		c.rates.line(0, s)
	}
	switch e.Type {
	case "output":
		c.results.line(strings.TrimRight(e.Output, "\n"))
	case "internal_error":
		c.internal = append(c.internal, firstLine(e.Message))
	case "failure":
		if !e.Duplicate {
			c.failures = append(c.failures, e)
		}
	}
}

// writeCompatResults writes the rows so far as JSON.
func writeCompatResults(path string, cfg config, rows []compatRow) error {
	out := struct {
		Set        string      `json:"set"`
		CompatTime string      `json:"compattime"`
		Parallel   int         `json:"parallel"`
		Rows       []compatRow `json:"rows"`
	}{"compat", cfg.compattime.String(), cfg.parallel, rows}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o666)
}

// compatLine is a row's progress line.
func compatLine(r compatRow) string {
	return fmt.Sprintf("%s %s %s: tests %s, internal %d, findings %q, execs/s fuzzbox %.0f native %.0f %s",
		r.Module, r.Package, r.Fuzz, r.Tests, len(r.Internal), r.Findings, r.FuzzboxRate, r.NativeRate, r.Note)
}

// printCompatTable prints the markdown table and a summary line.
func printCompatTable(w io.Writer, cfg config, rows []compatRow) {
	fmt.Fprintf(w, "Compat set: %d fuzz tests, %s of fuzzing each with fuzzbox and with go test -fuzz, -parallel=%d\n\n",
		len(rows), cfg.compattime, cfg.parallel)
	fmt.Fprintln(w, "| module | package | fuzz test | tests and seeds vs go test | fuzzbox execs/s | native execs/s | ratio | internal errors | fuzzbox findings (go test reproduces?) | native finding | notes |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	agree, internal, unrepro, found := 0, 0, 0, 0
	for _, r := range rows {
		if r.Agree {
			agree++
		}
		internal += len(r.Internal)
		unrepro += r.Unreproduced
		found += len(r.Findings)
		ratio := "–"
		if r.NativeRate > 0 && r.FuzzboxRate > 0 {
			ratio = fmt.Sprintf("%.2fx", r.FuzzboxRate/r.NativeRate)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.Module, r.Package, r.Fuzz, cellText(clip(r.Tests, 200)), rate(r.FuzzboxRate), rate(r.NativeRate), ratio,
			cellText(orDash(strings.Join(r.Internal, "; "))), cellText(orDash(strings.Join(r.Findings, "; "))),
			cellText(orDash(r.NativeFound)), cellText(orDash(r.Note)))
	}
	fmt.Fprintf(w, "\n%d fuzz tests; tests and seeds agree with go test on %d; %d internal errors; %d fuzzbox findings, %d not reproduced by go test.\n",
		len(rows), agree, internal, found, unrepro)
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
