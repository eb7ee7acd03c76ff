package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The compat set runs real fuzz tests as a user would, with fuzzbox beside
// stock go test, and checks what must hold on every real module:
//   - the package's tests and seeds pass and fail in fuzzbox's binary as
//     under go test (top-level results compared, by name);
//   - fuzzbox builds and fuzzes the package, and fuzzing -compattime raises
//     no internal error;
//   - every failure fuzzbox reports is one stock go test reproduces
//     (its reproducer replayed with go test -run=^FuzzX$/^NAME$);
//
// and measures fuzzbox's execs/s against go test -fuzz's over the same time.
// compatlist.go reads the list, compatcheck.go runs the commands,
// compatparse.go reads their output.

// A compatRow is the outcome for one fuzz test, as written to -o.
type compatRow struct {
	Module   string   `json:"module"`
	Package  string   `json:"package"`
	Fuzz     string   `json:"fuzz"`
	Tests    string   `json:"tests"`              // "agree (N)", or "DIFFER ...: ..." / "not run: ..."
	Agree    bool     `json:"agree"`              // tests and seeds agree with go test
	Internal []string `json:"internal,omitempty"` // internal errors (tests phase and fuzzing), first lines
	// FuzzboxError says why fuzzbox did not fuzz the fuzz test as asked (a
	// build error, exit 2, killed); "" when it did.
	FuzzboxError string `json:"fuzzbox_error,omitempty"`
	// Findings are fuzzbox's failures while fuzzing, each "kind: message
	// (go test reproduces: yes|NO...|...)".
	Findings     []string `json:"findings,omitempty"`
	Unreproduced int      `json:"unreproduced"`    // findings go test does not reproduce
	Flaky        []string `json:"flaky,omitempty"` // fuzzbox's flaky events, "kind: message"
	FuzzboxRate  float64  `json:"fuzzbox_execs_per_sec"`
	NativeRate   float64  `json:"native_execs_per_sec"`
	NativeFound  string   `json:"native_found,omitempty"` // native's failure, "kind: message"
	// FuzzboxBaselineOnly and NativeBaselineOnly say that the engine was
	// still running the seeds and cached inputs when -compattime ended: its
	// rate is not a fuzzing rate (the table leaves the ratio out).
	FuzzboxBaselineOnly bool   `json:"fuzzbox_baseline_only,omitempty"`
	NativeBaselineOnly  bool   `json:"native_baseline_only,omitempty"`
	Note                string `json:"note,omitempty"`
}

// clean reports whether the row meets every requirement.
func (r compatRow) clean() bool {
	return r.Agree && len(r.Internal) == 0 && r.Unreproduced == 0 && r.FuzzboxError == ""
}

func (r compatRow) key() string { return r.Module + " " + r.Package + " " + r.Fuzz }

// compatEnv is what every package of one compat run shares.
type compatEnv struct {
	cfg     config
	fuzzbox string
	work    string // copies of the modules, scratch directory for std packages, caches
	logDir  string // every command's log
	repro   string // copies of fuzzbox's reproducers (they are removed from the packages)
}

// runCompat runs the compat set and prints its table. It returns an error
// when a row is not clean.
func runCompat(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	pkgs, err := readCompatList(cfg.compatList)
	if err != nil {
		return err
	}
	pkgs = selectCompat(pkgs, cfg.targets)
	if len(pkgs) == 0 {
		return fmt.Errorf("compat: no package of %s matches -targets", cfg.compatList)
	}
	var done []compatRow
	if cfg.resume {
		if done, err = readCompatResults(cfg.out); err != nil {
			return err
		}
	}
	env, cleanup, err := newCompatEnv(ctx, cfg)
	if err != nil {
		return err
	}
	defer cleanup()
	rows, err := env.runAll(ctx, pkgs, done, stderr)
	if err != nil {
		return err
	}
	printCompatTable(stdout, cfg, rows)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var unclean []string
	for _, r := range rows {
		if !r.clean() {
			unclean = append(unclean, r.key())
		}
	}
	if len(unclean) > 0 {
		return fmt.Errorf("compat: %d of %d fuzz tests do not run as under go test: %s", len(unclean), len(rows), strings.Join(unclean, "; "))
	}
	return nil
}

// newCompatEnv makes the run's directories and, without -fuzzbox, builds
// fuzzbox.
func newCompatEnv(ctx context.Context, cfg config) (*compatEnv, func(), error) {
	base := strings.TrimSuffix(cfg.out, filepath.Ext(cfg.out))
	env := &compatEnv{cfg: cfg, fuzzbox: cfg.fuzzbox, logDir: base + "-logs", repro: base + "-repro"}
	if err := os.MkdirAll(env.logDir, 0o777); err != nil {
		return nil, nil, fmt.Errorf("compat: %w", err)
	}
	work, err := os.MkdirTemp("", "fuzzbox-compat-")
	if err != nil {
		return nil, nil, fmt.Errorf("compat: %w", err)
	}
	env.work = work
	cleanup := func() { os.RemoveAll(work) }
	if env.fuzzbox == "" {
		bin, rm, err := buildFuzzbox(ctx)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		env.fuzzbox = bin
		cleanup = func() { rm(); os.RemoveAll(work) }
	}
	return env, cleanup, nil
}

// runAll runs every package, one command at a time, streaming each row to
// stderr and writing all rows to -o as it goes. Rows of done (-resume) are
// kept and not run again.
func (env *compatEnv) runAll(ctx context.Context, pkgs []compatPkg, done []compatRow, stderr io.Writer) ([]compatRow, error) {
	have := map[string]compatRow{}
	for _, r := range done {
		have[r.key()] = r
	}
	var rows []compatRow
	for _, p := range pkgs {
		if ctx.Err() != nil {
			break
		}
		if kept, ok := p.rowsIn(have); ok {
			rows = append(rows, kept...)
			continue
		}
		for _, r := range env.runPackage(ctx, p) {
			fmt.Fprintf(stderr, "compat: %s\n", compatLine(r))
			rows = append(rows, r)
		}
		if err := writeCompatResults(env.cfg.out, env.cfg, rows); err != nil {
			return rows, err
		}
	}
	// Rows kept from -resume after the last package run are written too.
	return rows, writeCompatResults(env.cfg.out, env.cfg, rows)
}

// rowsIn returns p's rows from an earlier run's, if it has them all.
func (p compatPkg) rowsIn(have map[string]compatRow) ([]compatRow, bool) {
	var rows []compatRow
	for _, fz := range p.fuzz {
		r, ok := have[p.module+" "+p.label()+" "+fz]
		if !ok {
			return nil, false
		}
		rows = append(rows, r)
	}
	return rows, true
}

// compatResults is the -o file of the compat set.
type compatResults struct {
	Set        string      `json:"set"`
	CompatTime string      `json:"compattime"`
	Parallel   int         `json:"parallel"`
	Rows       []compatRow `json:"rows"`
}

// writeCompatResults writes the rows so far as JSON.
func writeCompatResults(path string, cfg config, rows []compatRow) error {
	return writeJSON(path, compatResults{"compat", cfg.compattime.String(), cfg.parallel, rows})
}

// writeJSON writes v, indented, to path.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o777)
	}
	if err == nil {
		err = os.WriteFile(path, append(data, '\n'), 0o666)
	}
	if err != nil {
		return fmt.Errorf("writing results to %s: %w", path, err)
	}
	return nil
}

// readCompatResults reads the rows of an earlier run's -o file (-resume);
// none if it does not exist.
func readCompatResults(path string) ([]compatRow, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("compat: -resume: %w", err)
	}
	var in compatResults
	if err := json.Unmarshal(data, &in); err != nil || in.Set != "compat" {
		return nil, fmt.Errorf("compat: -resume: %s is not a compat results file (%v)", path, err)
	}
	return in.Rows, nil
}

// compatLine is a row's progress line.
func compatLine(r compatRow) string {
	s := fmt.Sprintf("%s %s %s: tests %s, internal %d %q, findings %q, flaky %d, execs/s fuzzbox %.0f native %.0f",
		r.Module, r.Package, r.Fuzz, r.Tests, len(r.Internal), r.Internal, r.Findings, len(r.Flaky), r.FuzzboxRate, r.NativeRate)
	if r.FuzzboxError != "" {
		s += ", " + r.FuzzboxError
	}
	if r.Note != "" {
		s += ", note: " + r.Note
	}
	return s
}

// printCompatTable prints the markdown table and a summary line.
func printCompatTable(w io.Writer, cfg config, rows []compatRow) {
	fmt.Fprintf(w, "Compat set: %d fuzz tests, %s of fuzzing each with fuzzbox and with go test -fuzz, -parallel=%d\n\n",
		len(rows), cfg.compattime, cfg.parallel)
	fmt.Fprintln(w, "| module@version | package | fuzz test | tests and seeds vs go test | fuzzbox execs/s | native execs/s | ratio | internal errors | fuzzbox findings (go test reproduces?) | native finding | notes |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	var s compatSummary
	for _, r := range rows {
		s.add(r)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.Module, r.Package, r.Fuzz, compatCell(r.Tests), rate(r.FuzzboxRate), rate(r.NativeRate),
			ratio(!r.FuzzboxBaselineOnly && !r.NativeBaselineOnly, r.FuzzboxRate, r.NativeRate), compatCell(strings.Join(r.Internal, "; ")),
			compatCell(strings.Join(r.Findings, "; ")), compatCell(r.NativeFound), compatCell(rowNotes(r)))
	}
	fmt.Fprintf(w, "\n%s\n", s)
}

// rowNotes is the notes cell: why fuzzbox did not run, flaky inputs, notes.
func rowNotes(r compatRow) string {
	var parts []string
	if r.FuzzboxError != "" {
		parts = append(parts, r.FuzzboxError)
	}
	if len(r.Flaky) > 0 {
		parts = append(parts, fmt.Sprintf("%d flaky: %s", len(r.Flaky), strings.Join(r.Flaky, "; ")))
	}
	if r.Note != "" {
		parts = append(parts, r.Note)
	}
	return strings.Join(parts, "; ")
}

// compatSummary counts the table's rows.
type compatSummary struct {
	rows, agree, notRun, internal, findings, unrepro, fuzzboxFailed, clean int
}

func (s *compatSummary) add(r compatRow) {
	s.rows++
	if r.Agree {
		s.agree++
	}
	if strings.HasPrefix(r.Tests, "not ") {
		s.notRun++
	}
	if r.FuzzboxError != "" {
		s.fuzzboxFailed++
	}
	if r.clean() {
		s.clean++
	}
	s.internal += len(r.Internal)
	s.findings += len(r.Findings)
	s.unrepro += r.Unreproduced
}

func (s compatSummary) String() string {
	return fmt.Sprintf("%d fuzz tests, %d clean; tests and seeds agree with go test on %d (%d not compared); "+
		"%d internal errors; fuzzbox did not fuzz %d; %d fuzzbox findings, %d not reproduced by go test.",
		s.rows, s.clean, s.agree, s.notRun, s.internal, s.fuzzboxFailed, s.findings, s.unrepro)
}

// compatCell makes s fit a table cell: no pipes or newlines, at most 300
// bytes (the JSON results have it all).
func compatCell(s string) string {
	s = strings.NewReplacer("|", "/", "\n", " ").Replace(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return orDash(s)
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
