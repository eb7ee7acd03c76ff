package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// This file runs the compat set's commands on one package: its tests under
// go test and in fuzzbox's binary, fuzzbox's fuzzing and the replay of what
// it found, and go test -fuzz.

// runPackage checks one package: its tests once, then each fuzz test.
func (env *compatEnv) runPackage(ctx context.Context, p compatPkg) []compatRow {
	rows := make([]compatRow, len(p.fuzz))
	for i, fz := range p.fuzz {
		rows[i] = compatRow{Module: p.module, Package: p.label(), Fuzz: fz}
	}
	notRun := func(why string) []compatRow {
		for i := range rows {
			rows[i].Tests, rows[i].Note = "not run", why
		}
		return rows
	}
	loc, err := env.locate(ctx, p)
	if err != nil {
		return notRun(err.Error())
	}
	guard, err := guardTestdata(loc.pkgDir)
	if err != nil {
		return notRun(err.Error())
	}
	tc := env.compareTests(ctx, p, &loc, guard)
	env.restore(guard, &tc.note)
	for i := range rows {
		r := &rows[i]
		r.Tests, r.Agree, r.Internal, r.Note = tc.cell, tc.agree, append([]string(nil), tc.internal...), tc.note
		env.fuzzOne(ctx, p, loc, r)
		env.restore(guard, &r.Note)
		env.native(ctx, p, loc, r)
		env.restore(guard, &r.Note)
	}
	return rows
}

// restore undoes a run's writes to the package's testdata, noting failure.
func (env *compatEnv) restore(g *testdataGuard, note *string) {
	if err := g.restore(); err != nil {
		addNote(note, "cleaning testdata: "+err.Error())
	}
}

// A testsCompared is the outcome of running a package's tests both ways.
type testsCompared struct {
	cell     string   // "agree (N)", "DIFFER: ...", "not run: ..."
	agree    bool     // every top-level result is the same
	internal []string // fuzzbox's internal errors while running them
	note     string
}

// compareTests runs the package's tests and seeds with go test -v and in
// fuzzbox's binary (fuzzing the first fuzz test for one execution, which
// runs them all first, as go test -fuzz does) and compares the results by
// name. What fuzzbox's runs write to testdata (a reproducer of what that
// execution found) is removed (guard) before the tests run again.
func (env *compatEnv) compareTests(ctx context.Context, p compatPkg, loc *compatLoc, guard *testdataGuard) testsCompared {
	var tc testsCompared
	stock, code, err := env.stockTests(ctx, p, loc)
	if slices.Contains(loc.env, modMod) {
		addNote(&tc.note, modMod+" (the module's go.sum lacks sums its tests need)")
	}
	if err != nil {
		tc.cell = "not run: go test: " + err.Error()
		return tc
	}
	cache, err := os.MkdirTemp(env.work, "cache-")
	if err != nil {
		tc.cell = "not run: " + err.Error()
		return tc
	}
	defer os.RemoveAll(cache)
	fb := newCompatEvents(false)
	fcode, _, err := env.run(ctx, compatCmd{dir: loc.dir, env: loc.env, log: env.logName(p, "", "fuzzbox-tests"),
		timeout: 30 * time.Minute, line: fb.line},
		env.fuzzbox, "fuzz", "-json", noGoCache(env.fuzzbox), "-v", "-tags="+p.tags, "-fuzz=^"+p.fuzz[0]+"$", "-fuzztime=1x", "-cachedir="+cache, loc.target)
	tc.internal = fb.internal
	env.restore(guard, &tc.note)
	switch trouble := fb.trouble(fcode); {
	case err != nil:
		tc.cell = "not run: fuzzbox: " + err.Error()
	case len(stock) == 0:
		tc.cell = fmt.Sprintf("not compared: go test printed no result (exit %d)", code)
		if trouble != "" {
			tc.cell += "; " + trouble
		}
	case len(fb.results) == 0 && trouble != "":
		tc.cell = "not run: " + trouble
	default:
		tc.cell, tc.agree = compareCell(stock, fb.results, p.fuzz[0], fb.found())
		if !tc.agree {
			tc.cell, tc.agree = env.recheck(ctx, p, loc, guard, &tc.note, stock, fb.results)
		}
	}
	return tc
}

// rechecks is how many more times recheck runs the tests that differed.
const rechecks = 2

// recheck runs the tests whose results differed again, rechecks times on
// each side: a test whose result changes from run to run on either side
// is flaky (timing under load, say), not a difference between fuzzbox and
// go test. The names that keep one result on each side, different ones,
// run under go test -fuzz too (instrumented); they are a difference unless
// it gives fuzzbox's result. It returns the cell and whether they agree.
func (env *compatEnv) recheck(ctx context.Context, p compatPkg, loc *compatLoc, guard *testdataGuard, note *string, stock, fuzzbox testResults) (string, bool) {
	names := stock.diffNames(fuzzbox)
	run := runPattern(names)
	seen := map[string]*outcomes{}
	for _, n := range names {
		seen[n] = &outcomes{stock: []string{orNone(stock[n])}, fuzzbox: []string{orNone(fuzzbox[n])}}
	}
	for i := range rechecks {
		st := testResults{}
		env.run(ctx, compatCmd{dir: loc.dir, env: loc.env, log: env.logName(p, "", fmt.Sprintf("gotest-recheck%d", i+1)),
			timeout: 10 * time.Minute, line: st.line}, "go", "test", "-count=1", "-v", "-tags="+p.tags, "-run="+run, loc.target)
		fb := newCompatEvents(false)
		cache, _ := os.MkdirTemp(env.work, "cache-")
		env.run(ctx, compatCmd{dir: loc.dir, env: loc.env, log: env.logName(p, "", fmt.Sprintf("fuzzbox-recheck%d", i+1)),
			timeout: 10 * time.Minute, line: fb.line},
			env.fuzzbox, "fuzz", "-json", noGoCache(env.fuzzbox), "-v", "-tags="+p.tags, "-run="+run, "-fuzz=^"+p.fuzz[0]+"$", "-fuzztime=1x", "-cachedir="+cache, loc.target)
		os.RemoveAll(cache)
		env.restore(guard, note)
		for _, n := range names {
			seen[n].stock = append(seen[n].stock, orNone(st[n]))
			seen[n].fuzzbox = append(seen[n].fuzzbox, orNone(fb.results[n]))
		}
	}
	var steady []string
	for _, n := range names {
		if seen[n].steady() {
			steady = append(steady, n)
		}
	}
	if len(steady) > 0 {
		env.instrumented(ctx, p, loc, guard, note, steady, seen)
	}
	return recheckCell(names, seen, len(stock))
}

// instrumented runs the tests that go test and fuzzbox's binary steadily
// disagree on under go test -fuzz too (the fuzz test for one execution,
// which runs the tests first), rechecks+1 times: go's own instrumented
// build. A test that fails there as in fuzzbox's binary is sensitive to
// the instrumentation's cost (a timing test under load, say), which a user
// of go test -fuzz meets as well.
func (env *compatEnv) instrumented(ctx context.Context, p compatPkg, loc *compatLoc, guard *testdataGuard, note *string, names []string, seen map[string]*outcomes) {
	run := runPattern(names)
	for i := range rechecks + 1 {
		res := testResults{}
		cache, _ := os.MkdirTemp(env.work, "cache-")
		env.run(ctx, compatCmd{dir: loc.pkgDir, env: loc.env, log: env.logName(p, "", fmt.Sprintf("gotest-fuzz-recheck%d", i+1)),
			timeout: 10 * time.Minute, line: res.line},
			"go", "test", "-count=1", "-v", "-tags="+p.tags, "-run="+run, "-fuzz=^"+p.fuzz[0]+"$", "-fuzztime=1x", ".", "-test.fuzzcachedir="+cache)
		os.RemoveAll(cache)
		env.restore(guard, note)
		for _, n := range names {
			seen[n].instr = append(seen[n].instr, orNone(res[n]))
		}
	}
}

// recheckCell is the table cell of rechecked differences and whether they
// agree: a test is a difference only when each side kept one result and go
// test -fuzz never gave fuzzbox's.
func recheckCell(names []string, seen map[string]*outcomes, tests int) (string, bool) {
	var differ, flaky, instr []string
	for _, n := range names {
		o := seen[n]
		switch o.kind() {
		case diffSteady:
			differ = append(differ, fmt.Sprintf("%s: go test %s, fuzzbox %s", n, o.stock[0], o.fuzzbox[0])+o.instrNote())
		case diffFlaky:
			flaky = append(flaky, fmt.Sprintf("%s (go test %s; fuzzbox %s)", n, strings.Join(o.stock, " "), strings.Join(o.fuzzbox, " ")))
		case diffInstrumented:
			instr = append(instr, fmt.Sprintf("%s (go test %s; go test -fuzz %s; fuzzbox %s)", n,
				strings.Join(o.stock, " "), strings.Join(o.instr, " "), strings.Join(o.fuzzbox, " ")))
		}
	}
	if len(differ) > 0 {
		return fmt.Sprintf("DIFFER (%d of %d, in %d runs each): %s", len(differ), tests, rechecks+1, strings.Join(differ, "; ")), false
	}
	cell := fmt.Sprintf("agree (%d)", tests)
	if len(flaky) > 0 {
		cell += "; flaky, not a difference: " + strings.Join(flaky, "; ")
	}
	if len(instr) > 0 {
		cell += "; as under go test -fuzz's instrumented build, not a difference: " + strings.Join(instr, "; ")
	}
	return cell, true
}

// outcomes are one test's results in successive runs on each side, and
// under go test -fuzz (instr) when each side kept one result.
type outcomes struct{ stock, fuzzbox, instr []string }

// The kinds of a rechecked difference.
const (
	diffSteady       = iota // each side kept one result, and go test -fuzz never gave fuzzbox's
	diffFlaky               // a side's result changed from run to run
	diffInstrumented        // go test -fuzz gave fuzzbox's result at least once
)

func (o *outcomes) kind() int {
	switch {
	case !o.steady():
		return diffFlaky
	case slices.Contains(o.instr, o.fuzzbox[0]):
		return diffInstrumented
	}
	return diffSteady
}

// instrNote is what go test -fuzz gave, for a difference's cell.
func (o *outcomes) instrNote() string {
	if len(o.instr) == 0 {
		return ""
	}
	return " (go test -fuzz " + strings.Join(o.instr, " ") + ")"
}

// steady reports whether each side kept one result (and they differ: only
// differing names are rechecked).
func (o *outcomes) steady() bool {
	return allSame(o.stock) && allSame(o.fuzzbox) && o.stock[0] != o.fuzzbox[0]
}

func allSame(xs []string) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}

// runPattern is the -run pattern that selects exactly names.
func runPattern(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(quoted, "|") + ")$"
}

// compareCell is the table cell of a comparison and whether it agrees.
// fuzzbox ran with -fuzz=^fuzz$: when a test failed on both sides, go test
// -fuzz stops before fuzz, whose seeds are its fuzzing's baseline, so fuzz
// has no result line there, and fuzzbox agrees when it has none either.
// found says that fuzzing fuzz (its baseline and one execution) recorded a
// failure: fuzz's FAIL is then that finding's, not its seeds'.
func compareCell(stock, fuzzbox testResults, fuzz string, found bool) (string, bool) {
	d := stock.diff(fuzzbox)
	if len(d) == 0 {
		return fmt.Sprintf("agree (%d)", len(stock)), true
	}
	if found && len(d) == 1 && stock[fuzz] == "PASS" && fuzzbox[fuzz] == "FAIL" {
		// The fuzz test's result is its seeds' and fuzzing's for one
		// execution (after the baseline, which has the zero value
		// too): the failure fuzzing found is the fuzz row's finding.
		return fmt.Sprintf("agree (%d); %s failed on an input fuzzing generated (its row's finding), its seeds pass", len(stock)-1, fuzz), true
	}
	if stoppedAtFailure(stock, fuzzbox, fuzz) {
		return fmt.Sprintf("agree (%d); no result for %s: a test failed first on both sides, where go test -fuzz stops too", len(stock)-1, fuzz), true
	}
	return fmt.Sprintf("DIFFER (%d of %d): %s", len(d), len(stock), strings.Join(d, "; ")), false
}

// stoppedAtFailure reports whether the one difference is fuzz's missing
// result in fuzzbox's run, and a test failed in both runs.
func stoppedAtFailure(stock, fuzzbox testResults, fuzz string) bool {
	d := stock.diffNames(fuzzbox)
	if len(d) != 1 || d[0] != fuzz || fuzzbox[fuzz] != "" {
		return false
	}
	for n, r := range fuzzbox {
		if r == "FAIL" && stock[n] == "FAIL" {
			return true
		}
	}
	return false
}

// modMod is the environment of a module whose go.sum go mod download does
// not complete.
const modMod = "GOFLAGS=-mod=mod"

// stockTests runs go test -v on the package. A module copy whose go.sum
// lacks sums its tests need gets them with go mod download, else it runs
// with GOFLAGS=-mod=mod from then on (loc.env).
func (env *compatEnv) stockTests(ctx context.Context, p compatPkg, loc *compatLoc) (testResults, int, error) {
	for attempt := 0; ; attempt++ {
		stock, sums := testResults{}, false
		line := func(s string) { stock.line(s); sums = sums || missingSum(s) }
		code, _, err := env.run(ctx, compatCmd{dir: loc.dir, env: loc.env, log: env.logName(p, "", "gotest"),
			timeout: 20 * time.Minute, line: line}, "go", "test", "-count=1", "-v", "-tags="+p.tags, "-run=.", loc.target)
		if err != nil || !sums || p.std() || attempt == 2 {
			return stock, code, err
		}
		if attempt == 0 {
			if err := fetchSums(ctx, *loc); err != nil {
				return stock, code, err
			}
		} else {
			loc.env = append(loc.env, modMod)
		}
	}
}

// fuzzOne fuzzes one fuzz test with fuzzbox and replays what it found with
// go test.
func (env *compatEnv) fuzzOne(ctx context.Context, p compatPkg, loc compatLoc, r *compatRow) {
	cache, err := os.MkdirTemp(env.work, "cache-")
	if err != nil {
		addNote(&r.Note, err.Error())
		return
	}
	defer os.RemoveAll(cache)
	ev := newCompatEvents(true)
	code, _, err := env.run(ctx, compatCmd{dir: loc.dir, env: loc.env, log: env.logName(p, r.Fuzz, "fuzzbox"),
		timeout: 2*env.cfg.compattime + 15*time.Minute, line: ev.line},
		env.fuzzbox, "fuzz", "-json", noGoCache(env.fuzzbox), "-tags="+p.tags, "-run=^$", "-fuzz=^"+r.Fuzz+"$", "-fuzztime="+env.cfg.compattime.String(),
		"-parallel="+strconv.Itoa(env.cfg.parallel), "-fuzzminimizetime=10s", "-cachedir="+cache, loc.target)
	switch {
	case err != nil:
		r.FuzzboxError = "fuzzbox: " + err.Error()
	default:
		r.FuzzboxError = ev.trouble(code)
	}
	var rr runResult
	ev.rates.result(&rr)
	r.FuzzboxRate = rr.ExecsPerSec
	if note := baselineNote(ev, rr.Execs); note != "" {
		r.FuzzboxBaselineOnly = true
		addNote(&r.Note, note)
	}
	r.Internal = append(r.Internal, ev.internal...)
	r.Flaky = ev.flaky
	for _, f := range ev.failures {
		r.Findings = append(r.Findings, env.replayFinding(ctx, p, loc, r, f))
	}
	if n, _ := filepath.Glob(filepath.Join(cache, "unreproduced", "*", "*")); len(n) > 0 {
		addNote(&r.Note, fmt.Sprintf("fuzzbox set aside %d input(s) go test passes", len(n)))
	}
}

// baselineNote says that fuzzbox's run ended in its baseline, having run
// execs executions, or is "" when it started fuzzing or never began the
// baseline. A baseline that ran no input to its end counts too: libp2p
// autonatv2's FuzzServerDialRequest, whose one seed waits on 10-s
// deadlines, was counted as fuzzed in 10 s where nothing was.
func baselineNote(ev *compatEvents, execs int64) string {
	if ev.started || (execs == 0 && ev.seeds == "") {
		return ""
	}
	return fmt.Sprintf("fuzzbox did not finish the baseline (%d execs of %s inputs)", execs, orNone(ev.seeds))
}

// native fuzzes the fuzz test with go test -fuzz for the same time.
func (env *compatEnv) native(ctx context.Context, p compatPkg, loc compatLoc, r *compatRow) {
	cache, err := os.MkdirTemp(env.work, "cache-")
	if err != nil {
		addNote(&r.Note, err.Error())
		return
	}
	defer os.RemoveAll(cache)
	nat, baseline := newNativeParser(), ""
	line := func(s string) {
		nat.line(0, s)
		if b, ok := nativeBaseline(s); ok {
			baseline = b
		}
	}
	_, _, err = env.run(ctx, compatCmd{dir: loc.pkgDir, env: loc.env, log: env.logName(p, r.Fuzz, "native"),
		timeout: 2*env.cfg.compattime + 15*time.Minute, line: line},
		"go", "test", "-tags="+p.tags, "-run=^$", "-fuzz=^"+r.Fuzz+"$", "-fuzztime="+env.cfg.compattime.String(),
		"-parallel="+strconv.Itoa(env.cfg.parallel), "-fuzzminimizetime=10s", ".", "-test.fuzzcachedir="+cache)
	if err != nil {
		addNote(&r.Note, "native: "+err.Error())
	}
	var nr runResult
	nat.result(&nr)
	r.NativeRate = nr.ExecsPerSec
	if nr.Failed {
		r.NativeFound = nr.Kind + ": " + nr.Message
	}
	switch {
	case nr.ExecsPerSec == 0 && baseline != "":
		r.NativeBaselineOnly = true
		addNote(&r.Note, "native did not finish the baseline ("+baseline+")")
	case nr.ExecsPerSec == 0 && err == nil:
		addNote(&r.Note, "native printed no fuzzing statistics")
	}
}

// replayFinding keeps a copy of a fuzzbox failure's reproducer, replays it
// with stock go test, and describes it: "kind: first line (go test
// reproduces: ...)". Findings go test passes count in r.Unreproduced.
func (env *compatEnv) replayFinding(ctx context.Context, p compatPkg, loc compatLoc, r *compatRow, f compatEvent) string {
	desc := f.Kind + ": " + firstLine(f.Message)
	name := f.Seed
	switch {
	case f.Seed != "":
		desc += " (seed corpus entry " + f.Seed + ")"
	case f.Reproducer == "":
		return desc + " (no reproducer written)"
	default:
		path := reproducerPath(f.Reproducer, loc)
		name = filepath.Base(path)
		if err := env.keepReproducer(p, r.Fuzz, path); err != nil {
			desc += " (not kept: " + err.Error() + ")"
		}
	}
	if f.Kind == "oom" && !runtimeOOM(f.Message) {
		return desc + " (go test reproduces: oom, fuzzbox's memory limit; not replayable)"
	}
	replay := func(count int, log string) string {
		argv := []string{"go", "test", fmt.Sprintf("-count=%d", count), "-tags=" + p.tags, "-run=^" + r.Fuzz + "$/^" + regexp.QuoteMeta(name) + "$"}
		if f.Kind == "hang" {
			argv = append(argv, "-timeout=60s")
		}
		code, wall, err := env.run(ctx, compatCmd{dir: loc.dir, env: loc.env, log: env.logName(p, r.Fuzz, log),
			timeout: 5 * time.Minute, line: func(string) {}}, append(argv, loc.target)...)
		return replayVerdict(f.Kind, code, wall, err)
	}
	v := replay(1, "replay-"+name)
	if strings.HasPrefix(v, "NO") && intermittent(f) {
		// One go test run passes a failure that fuzzbox's fresh workers
		// saw only some of the time (a test that ranges over a map):
		// go test gets more tries, as the driver gives it.
		if again := replay(intermittentReplays, "replay-"+name+"-again"); !strings.HasPrefix(again, "NO") {
			v = fmt.Sprintf("%s, in %d more runs of go test after one that passed (fuzzbox's re-runs in fresh workers failed %d of %d)", again, intermittentReplays, f.Reproduced, f.Reruns)
		}
	}
	if strings.HasPrefix(v, "NO") {
		r.Unreproduced++
	}
	return desc + " (go test reproduces: " + v + ")"
}

// intermittentReplays is how many times go test runs a finding again, in
// one process (-count), when its first replay passed and fuzzbox's fresh
// workers failed it only some of the time: the driver's own replay gives
// such a failure up to ten runs (driver/confirm.go, flakyReplays).
const intermittentReplays = 20

// intermittent reports whether fuzzbox's re-runs of finding f in fresh
// workers failed some of the time and passed some of the time.
func intermittent(f compatEvent) bool {
	return f.Reproduced > 0 && f.Reproduced < f.Reruns && f.Kind != "hang"
}

// runtimeOOM reports whether an oom's message is the Go runtime's own, an
// allocation the machine refused (go-mssqldb's 48-GB slice from a count in
// its input), which does not depend on fuzzbox's memory limit: go test
// replays it on the same machine.
func runtimeOOM(msg string) bool {
	return strings.Contains(msg, "fatal error: runtime: out of memory")
}

// hangLimit is fuzzbox's default -timeout, which the runs use: an input
// that runs longer is a hang.
const hangLimit = 10 * time.Second

// replayVerdict says whether go test's replay of a finding reproduced it:
// a non-zero exit does ("yes"), a pass does not ("NO..."), but for a hang
// one that takes longer than fuzzbox's -timeout under go test too. wall is
// the replay's seconds.
func replayVerdict(kind string, code int, wall float64, err error) string {
	switch {
	case err != nil:
		return "could not run: " + err.Error()
	case code != 0 && kind == "hang":
		return "yes, times out at -timeout=60s"
	case code != 0:
		return "yes"
	case kind == "hang" && wall >= hangLimit.Seconds():
		return fmt.Sprintf("yes, runs %.0fs, over fuzzbox's %v -timeout", wall, hangLimit)
	case kind == "hang":
		return fmt.Sprintf("NO, passes in %.0fs, under fuzzbox's %v -timeout", wall, hangLimit)
	}
	return "NO, passes"
}

// reproducerPath resolves a failure event's reproducer path.
func reproducerPath(p string, loc compatLoc) string {
	if filepath.IsAbs(p) {
		return p
	}
	if q := filepath.Join(loc.dir, p); fileExists(q) {
		return q
	}
	return filepath.Join(loc.pkgDir, p)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// keepReproducer copies a reproducer to the results: the package's copy
// of it is removed after the run.
func (env *compatEnv) keepReproducer(p compatPkg, fuzz, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dir := filepath.Join(env.repro, fileName(p.name()), fuzz)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, filepath.Base(path)), data, 0o666)
}

// A compatCmd is how one command of the compat set runs.
type compatCmd struct {
	dir     string
	env     []string // added to the environment
	log     string   // file that gets the command line and all its output
	timeout time.Duration
	line    func(string) // gets each line of standard output and error
}

// run runs argv as c says. It returns the exit code and the seconds it
// took; err is set when it could not run or was killed.
func (env *compatEnv) run(ctx context.Context, c compatCmd, argv ...string) (int, float64, error) {
	if len(c.env) > 0 {
		// In the log's command line too, so that it can be pasted.
		argv = append(append([]string{"env"}, c.env...), argv...)
	}
	code, wall, _, err := execute(ctx, c.dir, argv, true, funcParser(c.line), c.log, c.timeout)
	if err == nil && code < 0 {
		err = fmt.Errorf("%s did not exit normally", filepath.Base(argv[0]))
	}
	return code, wall, err
}

// funcParser adapts a line function to lineParser.
type funcParser func(string)

func (f funcParser) line(_ time.Duration, s string) { f(s) }
func (f funcParser) result(*runResult)              {}

func (env *compatEnv) logName(p compatPkg, fuzz, what string) string {
	name := fileName(p.name())
	if fuzz != "" {
		name += "-" + fuzz
	}
	return filepath.Join(env.logDir, name+"-"+what+".log")
}

// addNote appends s to a note, unless the note has it.
func addNote(note *string, s string) {
	if slices.Contains(strings.Split(*note, "; "), s) {
		return // once is enough (the same restore failing at every recheck)
	}
	if *note != "" {
		*note += "; "
	}
	*note += s
}
