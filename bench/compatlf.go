package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// The compat set through libFuzzer (-set=compat -engines=libfuzzer): each
// listed fuzz test of a module is built with "fuzzbox build -libfuzzer" and
// run by libFuzzer from its package directory as OSS-Fuzz runs it (its seed
// corpus and the flags of its .options, fuzzbox's hang and memory limits),
// for -compattime. A crash goes back through "fuzzbox corpus
// import -from-libfuzzer" and must fail stock go test. Standard library
// packages are left out (OSS-Fuzz builds modules).

// An lfCompatRow is the outcome for one fuzz test, as written to -o.
type lfCompatRow struct {
	Module     string `json:"module"`
	Package    string `json:"package"`
	Fuzz       string `json:"fuzz"`
	BuildError string `json:"build_error,omitempty"`
	// SeedsCov and SeedsFeatures are libFuzzer's coverage and features
	// after the seed corpus (its INITED line); SeedsS how long that took.
	SeedsCov      int     `json:"seeds_cov"`
	SeedsFeatures int     `json:"seeds_features"`
	SeedsS        float64 `json:"seeds_s"`
	ExecsPerSec   float64 `json:"execs_per_sec"`
	// Finding is libFuzzer's failure, "kind: message (go test reproduces:
	// yes|NO ...)"; Unreproduced is set when stock go test does not fail
	// on it.
	Finding      string `json:"finding,omitempty"`
	Unreproduced bool   `json:"unreproduced,omitempty"`
	Note         string `json:"note,omitempty"`
}

// clean reports whether the row meets every requirement: it builds, and
// what libFuzzer found, go test reproduces.
func (r lfCompatRow) clean() bool { return r.BuildError == "" && !r.Unreproduced }

// runCompatLibFuzzer runs the compat set's module fuzz tests through
// libFuzzer and prints its table. It returns an error when a row is not
// clean.
func runCompatLibFuzzer(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	pkgs, err := readCompatList(cfg.compatList)
	if err != nil {
		return err
	}
	pkgs = selectCompat(pkgs, cfg.targets)
	env, cleanup, err := newCompatEnv(ctx, cfg)
	if err != nil {
		return err
	}
	defer cleanup()
	var rows []lfCompatRow
	for _, p := range pkgs {
		if p.std() || ctx.Err() != nil {
			continue
		}
		for _, fz := range p.fuzz {
			r := env.libFuzzerRow(ctx, p, fz)
			fmt.Fprintf(stderr, "compat libfuzzer: %s\n", strings.Join(lfCompatCells(r), " | "))
			rows = append(rows, r)
		}
		if err := writeJSON(cfg.out, rows); err != nil {
			return err
		}
	}
	if len(rows) == 0 {
		return fmt.Errorf("compat: no module fuzz test of %s matches -targets", cfg.compatList)
	}
	printLFCompatTable(stdout, cfg, rows)
	var unclean []string
	for _, r := range rows {
		if !r.clean() {
			unclean = append(unclean, r.Module+" "+r.Package+" "+r.Fuzz)
		}
	}
	if len(unclean) > 0 {
		return fmt.Errorf("compat: %d of %d fuzz tests do not build or report what go test does not reproduce: %s", len(unclean), len(rows), strings.Join(unclean, "; "))
	}
	return ctx.Err()
}

// libFuzzerRow builds fuzz test fz of p, runs it, and replays its crash.
func (env *compatEnv) libFuzzerRow(ctx context.Context, p compatPkg, fz string) lfCompatRow {
	r := lfCompatRow{Module: p.module, Package: p.label(), Fuzz: fz}
	loc, err := env.locate(ctx, p)
	if err != nil {
		r.BuildError = err.Error()
		return r
	}
	out := filepath.Join(env.work, "libfuzzer", fileName(p.name()), fz)
	args := []string{env.fuzzbox, "build", "-libfuzzer", "-fuzz=^" + fz + "$", "-o", out}
	if p.tags != "" {
		args = append(args, "-tags="+p.tags)
	}
	var last string
	cmd := compatCmd{dir: loc.pkgDir, env: loc.env, log: env.logName(p, fz, "libfuzzer-build"), timeout: 20 * time.Minute,
		line: func(s string) { last = s }}
	if code, _, err := env.run(ctx, cmd, append(args, ".")...); err != nil || code != 0 {
		r.BuildError = firstNonEmpty(last, fmt.Sprint(err))
		return r
	}
	bin := filepath.Join(out, fz)
	dir, err := os.MkdirTemp(env.work, "run-")
	if err != nil {
		r.Note = err.Error()
		return r
	}
	defer os.RemoveAll(dir)
	corpus, art := filepath.Join(dir, "corpus"), filepath.Join(dir, "artifacts")
	for _, d := range []string{corpus, art} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			r.Note = err.Error()
			return r
		}
	}
	if err := unzipTo(bin+"_seed_corpus.zip", corpus); err != nil {
		r.Note = err.Error()
		return r
	}
	opts, err := optionsFlags(bin + ".options")
	if err != nil {
		r.Note = err.Error()
		return r
	}
	argv := append(append(append([]string{bin}, libFuzzerFlags(env.cfg.compattime)...), opts...), "-artifact_prefix="+art+"/", corpus)
	lp := newLibFuzzerParser()
	var res runResult
	_, _, _, err = execute(ctx, loc.pkgDir, argv, true, lp, env.logName(p, fz, "libfuzzer"), env.cfg.compattime+5*time.Minute)
	if err != nil {
		addNote(&r.Note, err.Error())
	}
	lp.result(&res)
	r.SeedsCov, r.SeedsFeatures, r.SeedsS, r.ExecsPerSec = lp.initedCov, lp.initedFt, lp.start.Seconds(), res.ExecsPerSec
	if res.Failed {
		verdict := env.replayLibFuzzer(ctx, p, loc, fz, reproducerPath(res.Reproducer, loc))
		r.Finding = fmt.Sprintf("%s: %s (go test reproduces: %s)", res.Kind, res.Message, verdict)
		r.Unreproduced = verdict != "yes"
	}
	return r
}

// importedRE matches fuzzbox corpus import's line naming the reproducer's
// go test -run pattern.
var importedRE = regexp.MustCompile(`replay: go test -run=([^)\s]+)`)

// replayLibFuzzer turns libFuzzer's crash file into a go test reproducer
// and replays it with stock go test: "yes" when go test fails on it.
func (env *compatEnv) replayLibFuzzer(ctx context.Context, p compatPkg, loc compatLoc, fz, crash string) string {
	var run string
	cmd := compatCmd{dir: loc.pkgDir, env: loc.env, log: env.logName(p, fz, "libfuzzer-import"), timeout: 5 * time.Minute,
		line: func(s string) {
			if m := importedRE.FindStringSubmatch(s); m != nil {
				run = m[1]
			}
		}}
	if code, _, err := env.run(ctx, cmd, env.fuzzbox, "corpus", "import", "-from-libfuzzer", "-fuzz="+fz, crash); err != nil || code != 0 || run == "" {
		return fmt.Sprintf("NO: fuzzbox corpus import failed (exit %d, %v)", code, err)
	}
	_, name, _ := strings.Cut(run, "/")
	repro := filepath.Join(loc.pkgDir, "testdata", "fuzz", fz, name)
	defer os.Remove(repro)
	if err := env.keepReproducer(p, fz, repro); err != nil {
		return "NO: " + err.Error()
	}
	args := []string{"go", "test", "-count=1", "-run=" + run}
	if p.tags != "" {
		args = append(args, "-tags="+p.tags)
	}
	failed := false
	cmd = compatCmd{dir: loc.pkgDir, env: loc.env, log: env.logName(p, fz, "libfuzzer-replay"), timeout: 10 * time.Minute,
		line: func(s string) { failed = failed || strings.HasPrefix(strings.TrimSpace(s), "--- FAIL: "+fz) }}
	code, _, err := env.run(ctx, cmd, append(args, ".")...)
	if err != nil || code == 0 || !failed {
		return fmt.Sprintf("NO: go test -run=%s exit %d (%v)", run, code, err)
	}
	return "yes"
}

// lfCompatCells are a row's table cells.
func lfCompatCells(r lfCompatRow) []string {
	build, seeds, rate := "ok", "—", "—"
	if r.BuildError != "" {
		build = "FAILED: " + r.BuildError
	} else if r.SeedsS > 0 {
		seeds = fmt.Sprintf("%d / %d in %.2f s", r.SeedsCov, r.SeedsFeatures, r.SeedsS)
	}
	if r.ExecsPerSec > 0 {
		rate = fmt.Sprintf("%.0f", r.ExecsPerSec)
	}
	return []string{r.Module, r.Package, r.Fuzz, compatCell(build), seeds, rate, compatCell(r.Finding), compatCell(r.Note)}
}

// printLFCompatTable prints the rows as a markdown table.
func printLFCompatTable(w io.Writer, cfg config, rows []lfCompatRow) {
	fmt.Fprintf(w, "Compat set through libFuzzer: %d module fuzz tests, fuzzbox build -libfuzzer, %s of libFuzzer each "+
		"(seed corpus, the binary's .options, -timeout=10, -rss_limit_mb=2048)\n\n", len(rows), cfg.compattime)
	fmt.Fprintln(w, "| module@version | package | fuzz test | build | seeds: cov / ft | execs/s | finding (go test reproduces?) | notes |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	built, found := 0, 0
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(lfCompatCells(r), " | "))
		if r.BuildError == "" {
			built++
		}
		if r.Finding != "" {
			found++
		}
	}
	fmt.Fprintf(w, "\n%d of %d built; %d finding(s).\n", built, len(rows), found)
}
