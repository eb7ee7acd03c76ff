package main

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestReadCompatList(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "compat.txt")
	os.WriteFile(list, []byte(`# header
example.com/m@v1.2.3   .        FuzzA,FuzzB   # a note
example.com/m@v1.2.3   sub/pkg  FuzzC
std                    html     FuzzEscapeUnescape
example.com/t@v0.1.0   .        FuzzT         fuzz,extra
std                    encoding/json  FuzzUnmarshalJSON  GOEXPERIMENT=jsonv2
example.com/t@v0.1.0   .        FuzzT         fuzz   GOEXPERIMENT=a,b  GODEBUG=x=1
`), 0o666)
	pkgs, err := readCompatList(list)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 4 || pkgs[3].tags != "fuzz,extra" || pkgs[0].tags != "" || pkgs[0].name() != "example.com/m" || !slices.Equal(pkgs[0].fuzz, []string{"FuzzA", "FuzzB"}) ||
		pkgs[0].comment != "a note" || pkgs[1].name() != "example.com/m/sub/pkg" || !pkgs[2].std() || pkgs[2].name() != "html" {
		t.Errorf("parsed %+v", pkgs)
	}
	if got := selectCompat(pkgs, []string{"sub/"}); len(got) != 1 || got[0].pkg != "sub/pkg" {
		t.Errorf("selectCompat(sub/) = %+v", got)
	}
	// Settings of the environment: two lines of one package stay apart.
	if len(pkgs) != 6 || pkgs[4].tags != "" || !slices.Equal(pkgs[4].env, []string{"GOEXPERIMENT=jsonv2"}) ||
		pkgs[4].label() != "encoding/json (GOEXPERIMENT=jsonv2)" || pkgs[4].label() == (compatPkg{pkg: "encoding/json"}).label() ||
		pkgs[5].tags != "fuzz" || !slices.Equal(pkgs[5].env, []string{"GOEXPERIMENT=a,b", "GODEBUG=x=1"}) {
		t.Errorf("parsed %+v", pkgs[4:])
	}
	if got := selectCompat(pkgs, []string{"jsonv2"}); len(got) != 1 || got[0].label() != pkgs[4].label() {
		t.Errorf("selectCompat(jsonv2) = %+v", got)
	}
	if got := fileName(pkgs[4].name()); strings.ContainsAny(got, " /()=") {
		t.Errorf("fileName(%q) = %q", pkgs[4].name(), got)
	}
	for _, bad := range []string{"example.com/m . FuzzA\n", "example.com/m@v1 . Fuzzy\n", "example.com/m@v1 FuzzA\n", "example.com/m@v1 . FuzzA tags more\n",
		"example.com/m@v1 . FuzzA GOEXPERIMENT=x tags\n", "example.com/m@v1 . FuzzA lower=x\n"} {
		os.WriteFile(list, []byte(bad), 0o666)
		if _, err := readCompatList(list); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
}

func TestTestResultsDiff(t *testing.T) {
	stock, fb := testResults{}, testResults{}
	for _, l := range strings.Split(`=== RUN   TestA
--- PASS: TestA (0.00s)
--- FAIL: TestB (0.01s)
    --- FAIL: TestB/sub (0.00s)
--- SKIP: TestC (0.00s)
--- PASS: FuzzX (0.00s)
    --- PASS: FuzzX/seed#0 (0.00s)
printed without a newline--- PASS: TestGlued (0.00s)
    text    --- FAIL: TestGlued/sub (0.00s)`, "\n") {
		stock.line(l)
	}
	for _, l := range strings.Split(`--- PASS: TestA (0.00s)
--- PASS: TestB (0.01s)
--- SKIP: TestC (0.00s)
--- PASS: FuzzX (0.00s)
--- FAIL: FuzzX (3.00s)
--- PASS: TestOnlyHere (0.00s)
printed without a newline
--- PASS: TestGlued (0.00s)`, "\n") {
		fb.line(l)
	}
	want := []string{"TestB: go test FAIL, fuzzbox PASS", "TestOnlyHere: go test none, fuzzbox PASS"}
	if got := stock.diff(fb); !slices.Equal(got, want) {
		t.Errorf("diff = %q, want %q (the first result of a name counts; subtests do not)", got, want)
	}
	if d := stock.diff(stock); len(d) != 0 {
		t.Errorf("self diff = %q", d)
	}
}

// Lines as fuzzbox fuzz -json -v prints them (standard error merged in).
var fuzzboxTestsRun = []string{
	`{"type":"build","time":"2026-11-25T08:43:52Z","package":".","elapsed_ms":0}`,
	`{"type":"output","time":"2026-11-25T08:43:56Z","target":"FuzzUnmarshal","package":"github.com/pelletier/go-toml/v2","elapsed_ms":3958,"output":"--- PASS: TestParseIntegerInvalidBasePanics (0.00s)\n"}`,
	`{"type":"output","time":"2026-11-25T08:43:56Z","target":"FuzzUnmarshal","elapsed_ms":3958,"output":"    --- PASS: TestSub/case (0.00s)\n"}`,
	`--- FAIL: TestOnStderr (0.00s)`,
	`{"type":"internal_error","time":"2026-11-25T08:43:57Z","target":"FuzzUnmarshal","elapsed_ms":4000,"message":"fuzzbox's binary failed TestB, go test passes it\nfatal error: fault"}`,
	`{"type":"output","time":"2026-11-25T08:43:58Z","target":"FuzzUnmarshal","elapsed_ms":5604,"output":"--- PASS: FuzzUnmarshal (0.02s)\n"}`,
	`{"type":"exit","time":"2026-11-25T08:43:58Z","elapsed_ms":5609,"exit_code":0}`,
}

var fuzzboxFuzzRun = []string{
	`{"type":"start","time":"2026-11-25T08:43:58Z","target":"FuzzX","elapsed_ms":1000,"workers":2,"progress":"12/12"}`,
	`{"type":"stats","time":"2026-11-25T08:44:13Z","target":"FuzzX","elapsed_ms":2000,"execs":600,"execs_per_sec":600}`,
	`{"type":"minimizing","target":"FuzzX","elapsed_ms":2500,"kind":"panic","message":"panic: boom"}`,
	`{"type":"failure","target":"FuzzX","elapsed_ms":2900,"kind":"panic","message":"--- FAIL: FuzzX (0.00s)\n    panic: boom\n\ngoroutine 7 [running]:","reproducer":"testdata/fuzz/FuzzX/0123456789abcdef","reruns":1,"reproduced":1}`,
	`{"type":"failure","target":"FuzzX","elapsed_ms":2950,"kind":"panic","message":"panic: boom","duplicate":true}`,
	`{"type":"flaky","target":"FuzzX","elapsed_ms":2960,"kind":"fail","message":"x_test.go:12: racy\nmore","reruns":3}`,
	`{"type":"done","target":"FuzzX","elapsed_ms":3000,"execs":1000,"execs_per_sec":500,"failures":1,"found":true}`,
	`{"type":"exit","elapsed_ms":3010,"exit_code":1}`,
}

func TestCompatEventsTests(t *testing.T) {
	c := newCompatEvents(false)
	for _, l := range fuzzboxTestsRun {
		c.line(l)
	}
	want := testResults{"TestParseIntegerInvalidBasePanics": "PASS", "TestOnStderr": "FAIL", "FuzzUnmarshal": "PASS"}
	if !maps.Equal(c.results, want) {
		t.Errorf("results = %v, want %v (subtests do not count)", c.results, want)
	}
	if !slices.Equal(c.internal, []string{"fuzzbox's binary failed TestB, go test passes it"}) {
		t.Errorf("internal = %q", c.internal)
	}
	if tr := c.trouble(0); tr != "" {
		t.Errorf("trouble(0) = %q, want none", tr)
	}
}

func TestCompatEventsFuzz(t *testing.T) {
	c := newCompatEvents(true)
	for _, l := range fuzzboxFuzzRun {
		c.line(l)
	}
	if len(c.failures) != 1 || c.failures[0].Reproducer != "testdata/fuzz/FuzzX/0123456789abcdef" || c.failures[0].Kind != "panic" {
		t.Errorf("failures = %+v, want the one non-duplicate", c.failures)
	}
	if got := firstLine(c.failures[0].Message); got != "panic: boom" {
		t.Errorf("failure first line = %q", got)
	}
	if !slices.Equal(c.flaky, []string{"fail: x_test.go:12: racy"}) {
		t.Errorf("flaky = %q", c.flaky)
	}
	if tr := c.trouble(1); tr != "" {
		t.Errorf("trouble(1) = %q, want none: exit 1 is a finding", tr)
	}
	var r runResult
	c.rates.result(&r)
	if r.ExecsPerSec != 500 {
		t.Errorf("execs/s = %v, want 500 (1000 over the 2 s since start)", r.ExecsPerSec)
	}
}

func TestCompatEventsTrouble(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		code  int
		want  string
	}{
		{[]string{`{"type":"exit","elapsed_ms":900,"exit_code":2,"error":"build: package does not build: x.go:3: undefined: y\nmore"}`}, 2,
			"fuzzbox exit 2: build: package does not build: x.go:3: undefined: y"},
		{[]string{`fuzzbox: flag provided but not defined: -foo`}, 2, "fuzzbox exit 2"},
		{nil, -1, "fuzzbox did not exit normally"},
		{[]string{`{"type":"done","elapsed_ms":900}`}, 0, "fuzzbox exit 0 with no exit event"},
		{[]string{`{"type":"exit","elapsed_ms":900,"exit_code":0}`}, 0, ""},
	} {
		c := newCompatEvents(false)
		for _, l := range tc.lines {
			c.line(l)
		}
		if got := c.trouble(tc.code); got != tc.want {
			t.Errorf("%q exit %d: trouble = %q, want %q", tc.lines, tc.code, got, tc.want)
		}
	}
	c := newCompatEvents(false)
	c.line(`{"type":"done","elapsed_ms":900,"error":"worker protocol: short read\nstack"}`)
	if !slices.Equal(c.internal, []string{"run stopped: worker protocol: short read"}) {
		t.Errorf("a done event's error: internal = %q", c.internal)
	}
}

func TestCompareCell(t *testing.T) {
	stock := testResults{"TestA": "PASS", "FuzzX": "PASS"}
	if cell, ok := compareCell(stock, testResults{"TestA": "PASS", "FuzzX": "PASS"}, "FuzzX", false); !ok || cell != "agree (2)" {
		t.Errorf("same results: %q, %v", cell, ok)
	}
	cell, ok := compareCell(stock, testResults{"TestA": "FAIL"}, "FuzzX", false)
	if want := "DIFFER (2 of 2): FuzzX: go test PASS, fuzzbox none; TestA: go test PASS, fuzzbox FAIL"; ok || cell != want {
		t.Errorf("different results: %q, %v; want %q", cell, ok, want)
	}
	// A test that fails under go test too: go test -fuzz=^FuzzX$ stops
	// before FuzzX, and so does fuzzbox.
	failing := testResults{"TestA": "FAIL", "FuzzX": "PASS", "FuzzY": "PASS"}
	cell, ok = compareCell(failing, testResults{"TestA": "FAIL", "FuzzY": "PASS"}, "FuzzX", false)
	if want := "agree (2); no result for FuzzX: a test failed first on both sides, where go test -fuzz stops too"; !ok || cell != want {
		t.Errorf("stopped at a failing test: %q, %v; want %q", cell, ok, want)
	}
	// Fuzzing FuzzX found a failure: its FAIL is that finding's; with
	// anything else differing too, or without the finding, it is a
	// difference.
	cell, ok = compareCell(stock, testResults{"TestA": "PASS", "FuzzX": "FAIL"}, "FuzzX", true)
	if want := "agree (1); FuzzX failed on an input fuzzing generated (its row's finding), its seeds pass"; !ok || cell != want {
		t.Errorf("fuzzing found a failure: %q, %v; want %q", cell, ok, want)
	}
	for _, f := range []testResults{{"TestA": "FAIL", "FuzzX": "FAIL"}, {"TestA": "PASS"}} {
		if cell, ok := compareCell(stock, f, "FuzzX", true); ok {
			t.Errorf("fuzzbox %v with a finding: %q, want a difference", f, cell)
		}
	}
	if cell, ok := compareCell(stock, testResults{"TestA": "PASS", "FuzzX": "FAIL"}, "FuzzX", false); ok {
		t.Errorf("FuzzX failing without a finding: %q, want a difference", cell)
	}
	for _, c := range []struct {
		fuzzbox testResults
		fuzz    string
	}{
		{testResults{"TestA": "FAIL", "FuzzX": "PASS"}, "FuzzX"},                  // FuzzY missing: not the fuzzed one
		{testResults{"TestA": "FAIL", "FuzzY": "PASS"}, "FuzzY"},                  // FuzzX missing, but FuzzY was fuzzed
		{testResults{"TestA": "PASS", "FuzzY": "PASS"}, "FuzzX"},                  // no test failed in fuzzbox's run
		{testResults{"TestA": "FAIL", "FuzzX": "FAIL", "FuzzY": "PASS"}, "FuzzX"}, // a result, a different one
	} {
		if cell, ok := compareCell(failing, c.fuzzbox, c.fuzz, false); ok {
			t.Errorf("fuzzbox %v, -fuzz=%s: %q, want a difference", c.fuzzbox, c.fuzz, cell)
		}
	}
}

func TestReplayVerdict(t *testing.T) {
	for _, tc := range []struct {
		kind string
		code int
		wall float64
		err  error
		want string
	}{
		{"panic", 1, 0.2, nil, "yes"},
		{"fail", 0, 0.2, nil, "NO, passes"},
		{"hang", 1, 60, nil, "yes, times out at -timeout=60s"},
		{"hang", 0, 14.2, nil, "yes, runs 14s, over fuzzbox's 10s -timeout"},
		{"hang", 0, 2.1, nil, "NO, passes in 2s, under fuzzbox's 10s -timeout"},
		{"panic", -1, 300, errors.New("killed after 5m0s"), "could not run: killed after 5m0s"},
	} {
		if got := replayVerdict(tc.kind, tc.code, tc.wall, tc.err); got != tc.want {
			t.Errorf("replayVerdict(%s, %d, %v) = %q, want %q", tc.kind, tc.code, tc.err, got, tc.want)
		}
	}
}

func TestMissingSum(t *testing.T) {
	out := `go: github.com/x/y@v1.0.0: missing go.sum entry for go.mod file; to add it:
	go mod download github.com/x/y`
	if !missingSum(out) || missingSum("ok  \tgithub.com/x/y\t0.01s") {
		t.Error("missingSum")
	}
}

func TestCompatRowClean(t *testing.T) {
	for _, tc := range []struct {
		r    compatRow
		want bool
	}{
		{compatRow{Agree: true}, true},
		{compatRow{Agree: false}, false},
		{compatRow{Agree: true, Internal: []string{"x"}}, false},
		{compatRow{Agree: true, Unreproduced: 1}, false},
		{compatRow{Agree: true, FuzzboxError: "fuzzbox exit 2: build: ..."}, false},
		{compatRow{Agree: true, Findings: []string{"panic: x (go test reproduces: yes)"}, Flaky: []string{"fail: y"}}, true},
	} {
		if got := tc.r.clean(); got != tc.want {
			t.Errorf("%+v clean = %v", tc.r, got)
		}
	}
}

// TestTestdataGuard checks that reproducers runs write are removed and the
// package's own files stay, with and without a testdata directory.
func TestTestdataGuard(t *testing.T) {
	pkg := t.TempDir()
	seed := filepath.Join(pkg, "testdata", "fuzz", "FuzzX", "0123456789abcdef")
	write(t, seed)
	write(t, filepath.Join(pkg, "x.go"))
	g, err := guardTestdata(pkg)
	if err != nil {
		t.Fatal(err)
	}
	added := []string{filepath.Join(pkg, "testdata", "fuzz", "FuzzX", "fedcba9876543210"), filepath.Join(pkg, "testdata", "fuzz", "FuzzY", "0000000000000000")}
	for _, p := range added {
		write(t, p)
	}
	if err := g.restore(); err != nil {
		t.Fatal(err)
	}
	for _, p := range added {
		if fileExists(p) {
			t.Errorf("%s not removed", p)
		}
	}
	if !fileExists(seed) || !fileExists(filepath.Join(pkg, "x.go")) {
		t.Error("the package's own files were removed")
	}

	bare := t.TempDir()
	if g, err = guardTestdata(bare); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(bare, "testdata", "fuzz", "FuzzX", "0123456789abcdef"))
	if err := g.restore(); err != nil || fileExists(filepath.Join(bare, "testdata")) {
		t.Errorf("testdata the run created not removed (%v)", err)
	}
}

func write(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("go test fuzz v1\n[]byte(\"x\")\n"), 0o666); err != nil {
		t.Fatal(err)
	}
}

func TestCompatResume(t *testing.T) {
	out := filepath.Join(t.TempDir(), "compat.json")
	if rows, err := readCompatResults(out); err != nil || rows != nil {
		t.Errorf("no file: %v, %v; want nothing to resume", rows, err)
	}
	done := []compatRow{{Module: "example.com/m@v1.0.0", Package: ".", Fuzz: "FuzzA", Tests: "agree (3)", Agree: true}}
	if err := writeCompatResults(out, config{compattime: time.Second, parallel: 2}, done); err != nil {
		t.Fatal(err)
	}
	rows, err := readCompatResults(out)
	if err != nil || len(rows) != 1 || rows[0].key() != "example.com/m@v1.0.0 . FuzzA" {
		t.Fatalf("read back %+v, %v", rows, err)
	}
	have := map[string]compatRow{rows[0].key(): rows[0]}
	if kept, ok := (compatPkg{module: "example.com/m@v1.0.0", pkg: ".", fuzz: []string{"FuzzA"}}).rowsIn(have); !ok || len(kept) != 1 {
		t.Errorf("a package whose rows are all there is run again")
	}
	if _, ok := (compatPkg{module: "example.com/m@v1.0.0", pkg: ".", fuzz: []string{"FuzzA", "FuzzB"}}).rowsIn(have); ok {
		t.Errorf("a package with a fuzz test not run is skipped")
	}
	os.WriteFile(out, []byte(`{"set":"planted","runs":[]}`), 0o666)
	if _, err := readCompatResults(out); err == nil {
		t.Error("-resume took another set's results")
	}
}

func TestPrintCompatTable(t *testing.T) {
	var b strings.Builder
	printCompatTable(&b, config{compattime: 20 * time.Second, parallel: 2}, []compatRow{
		{Module: "m@v1", Package: ".", Fuzz: "FuzzA", Tests: "agree (3)", Agree: true, FuzzboxRate: 2000, NativeRate: 1000},
		{Module: "m@v1", Package: "p", Fuzz: "FuzzB", Tests: "DIFFER (1 of 3): TestX: go test PASS, fuzzbox FAIL", Internal: []string{"a|b"},
			Findings: []string{"panic: x (go test reproduces: NO, passes)"}, Unreproduced: 1, FuzzboxError: "fuzzbox exit 2: build"},
	})
	got := b.String()
	for _, want := range []string{
		"| m@v1 | . | FuzzA | agree (3) | 2000 | 1000 | 2.00 | — | — | — | — |",
		"| a/b |",
		"2 fuzz tests, 1 clean; tests and seeds agree with go test on 1 (0 not compared); 1 internal errors; fuzzbox did not fuzz 1; 1 fuzzbox findings, 1 not reproduced by go test.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}

// TestCompatListParses keeps bench/compat.txt and compat-go127.txt
// well-formed.
func TestCompatListParses(t *testing.T) {
	if _, err := readCompatList("compat-go127.txt"); err != nil {
		t.Fatal(err)
	}
	pkgs, err := readCompatList("compat.txt")
	if err != nil {
		t.Fatal(err)
	}
	mods := map[string]bool{}
	for _, p := range pkgs {
		if !p.std() {
			mods[p.module] = true
		}
	}
	if len(mods) < 25 {
		t.Errorf("the compat list has %d modules, want at least 25", len(mods))
	}
	// A fuzz test listed twice (at another version too) ran twice, and its
	// two rows shared a key in the results; with other tags it is another.
	dup := filepath.Join(t.TempDir(), "dup.txt")
	os.WriteFile(dup, []byte("example.com/m@v1.0.0 p FuzzA,FuzzB\nexample.com/m@v1.0.0 p FuzzC jsonv2\nexample.com/m@v1.1.0 p FuzzB\n"), 0o666)
	if _, err := readCompatList(dup); err == nil || !strings.Contains(err.Error(), "dup.txt:3: example.com/m p FuzzB is listed at line 1 already") {
		t.Errorf("a fuzz test listed twice: %v", err)
	}
}

// TestReplayFinding replays reproducers with the real go command in a tiny
// module: one input that fails the fuzz test, one that passes it.
func TestReplayFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	mod := tempModule(t, `package m

import "testing"

var thirds int

func FuzzX(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if s == "bug" {
			panic("BUG")
		}
		if s == "third" {
			thirds++
			if thirds%3 == 0 { // every third run in a process: an intermittent failure
				t.Fatal("third run")
			}
		}
		if s == "huge" {
			_ = make([]byte, 1<<47) // more than any machine maps: the runtime's own out of memory
		}
	})
}
`)
	dir := filepath.Join(mod, "testdata", "fuzz", "FuzzX")
	os.MkdirAll(dir, 0o777)
	os.WriteFile(filepath.Join(dir, "0123456789abcdef"), []byte("go test fuzz v1\nstring(\"bug\")\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "fedcba9876543210"), []byte("go test fuzz v1\nstring(\"fine\")\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "00000000000000ff"), []byte("go test fuzz v1\nstring(\"huge\")\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "0000000000000333"), []byte("go test fuzz v1\nstring(\"third\")\n"), 0o666)

	results := t.TempDir()
	env := &compatEnv{logDir: results, repro: filepath.Join(results, "repro")}
	p := compatPkg{module: "example.com/m@v1.0.0", pkg: ".", fuzz: []string{"FuzzX"}}
	loc := compatLoc{dir: mod, target: ".", pkgDir: mod}
	r := &compatRow{Fuzz: "FuzzX"}
	ctx := context.Background()
	got := env.replayFinding(ctx, p, loc, r, compatEvent{Kind: "panic", Message: "panic: BUG\n\ngoroutine 1", Reproducer: "testdata/fuzz/FuzzX/0123456789abcdef"})
	if want := "panic: panic: BUG (go test reproduces: yes)"; got != want || r.Unreproduced != 0 {
		t.Errorf("failing input: %q (unreproduced %d), want %q", got, r.Unreproduced, want)
	}
	if !fileExists(filepath.Join(env.repro, "example.com_m", "FuzzX", "0123456789abcdef")) {
		t.Error("reproducer not kept in the results")
	}
	got = env.replayFinding(ctx, p, loc, r, compatEvent{Kind: "fail", Message: "m_test.go:9: x", Reproducer: filepath.Join(dir, "fedcba9876543210")})
	if want := "fail: m_test.go:9: x (go test reproduces: NO, passes)"; got != want || r.Unreproduced != 1 {
		t.Errorf("passing input: %q (unreproduced %d), want %q", got, r.Unreproduced, want)
	}
	got = env.replayFinding(ctx, p, loc, r, compatEvent{Kind: "oom", Message: "out of memory", Reproducer: filepath.Join(dir, "fedcba9876543210")})
	if !strings.HasSuffix(got, "(go test reproduces: oom, fuzzbox's memory limit; not replayable)") || r.Unreproduced != 1 {
		t.Errorf("oom: %q", got)
	}
	got = env.replayFinding(ctx, p, loc, r, compatEvent{Kind: "oom", Message: "fatal error: runtime: out of memory\n\nruntime stack:", Reproducer: filepath.Join(dir, "00000000000000ff")})
	if want := "oom: fatal error: runtime: out of memory (go test reproduces: yes)"; got != want || r.Unreproduced != 1 {
		t.Errorf("the runtime's oom: %q (unreproduced %d), want %q", got, r.Unreproduced, want)
	}
	third := filepath.Join(dir, "0000000000000333")
	got = env.replayFinding(ctx, p, loc, r, compatEvent{Kind: "fail", Message: "m_test.go:17: third run", Reproducer: third, Reruns: 3, Reproduced: 1})
	if want := "fail: m_test.go:17: third run (go test reproduces: yes, in 20 more runs of go test after one that passed (fuzzbox's re-runs in fresh workers failed 1 of 3))"; got != want || r.Unreproduced != 1 {
		t.Errorf("an intermittent failure: %q (unreproduced %d), want %q", got, r.Unreproduced, want)
	}
	got = env.replayFinding(ctx, p, loc, r, compatEvent{Kind: "fail", Message: "m_test.go:17: third run", Reproducer: third, Reruns: 1, Reproduced: 1})
	if want := "fail: m_test.go:17: third run (go test reproduces: NO, passes)"; got != want || r.Unreproduced != 2 {
		t.Errorf("a failure fuzzbox's re-runs always saw: %q (unreproduced %d), want %q (one replay)", got, r.Unreproduced, want)
	}
}

// TestBaselineNote: a run that ended in its baseline is noted, also when
// no input of it ran to its end; one that started fuzzing, or never began
// the baseline, is not.
func TestBaselineNote(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		execs int64
		want  string
	}{
		{[]string{`{"type":"baseline","target":"FuzzS","progress":"0/1"}`}, 0, "fuzzbox did not finish the baseline (0 execs of 1 inputs)"},
		{[]string{`{"type":"baseline","target":"FuzzS","progress":"0/7787"}`}, 2795, "fuzzbox did not finish the baseline (2795 execs of 7787 inputs)"},
		{[]string{`{"type":"baseline","target":"FuzzS","progress":"0/2"}`, `{"type":"start","target":"FuzzS","progress":"2/2"}`}, 10, ""},
		{nil, 0, ""},
	} {
		c := newCompatEvents(true)
		for _, l := range tc.lines {
			c.line(l)
		}
		if got := baselineNote(c, tc.execs); got != tc.want {
			t.Errorf("%q, %d execs: %q, want %q", tc.lines, tc.execs, got, tc.want)
		}
	}
}

// TestBaselineOnly checks runs that spent -compattime on the seeds (as on
// klauspost/compress's zstd, with thousands of them): no start event, and
// go test -fuzz lines that never get past "gathering baseline coverage".
func TestBaselineOnly(t *testing.T) {
	c := newCompatEvents(true)
	for _, l := range []string{
		`{"type":"baseline","time":"2026-11-25T09:03:26Z","target":"FuzzEncoding","elapsed_ms":1766,"progress":"0/7787"}`,
		`{"type":"stats","time":"2026-11-25T09:03:44Z","target":"FuzzEncoding","elapsed_ms":19767,"execs":2562,"execs_per_sec":125.3,"corpus":2562,"edges":2124}`,
		`{"type":"done","time":"2026-11-25T09:03:46Z","target":"FuzzEncoding","elapsed_ms":21881,"execs":2795,"execs_per_sec":134.7,"corpus":2795,"edges":2128}`,
	} {
		c.line(l)
	}
	if c.started || c.seeds != "7787" {
		t.Errorf("started %v, seeds %q; want false, 7787", c.started, c.seeds)
	}
	for _, tc := range []struct {
		line, want string
		ok         bool
	}{
		{"fuzz: elapsed: 20s, gathering baseline coverage: 1594/7784 completed", "1594/7784", true},
		{"fuzz: elapsed: 0s, gathering baseline coverage: 1/1 completed, now fuzzing with 2 workers", "1/1", true},
		{"fuzz: elapsed: 3s, execs: 4178 (1393/sec), new interesting: 1 (total: 2)", "", false},
	} {
		if got, ok := nativeBaseline(tc.line); got != tc.want || ok != tc.ok {
			t.Errorf("nativeBaseline(%q) = %q, %v", tc.line, got, ok)
		}
	}
	var b strings.Builder
	printCompatTable(&b, config{}, []compatRow{{Module: "m@v1", Package: ".", Fuzz: "FuzzA", Agree: true, FuzzboxRate: 128, NativeRate: 50, NativeBaselineOnly: true}})
	if !strings.Contains(b.String(), "| 128 | 50 | — |") {
		t.Errorf("a ratio of baseline rates is printed:\n%s", b.String())
	}
}

func TestOutcomesSteady(t *testing.T) {
	for _, tc := range []struct {
		o    outcomes
		want bool
	}{
		{outcomes{stock: []string{"FAIL", "FAIL", "FAIL"}, fuzzbox: []string{"PASS", "PASS", "PASS"}}, true},
		{outcomes{stock: []string{"FAIL", "PASS", "PASS"}, fuzzbox: []string{"PASS", "PASS", "PASS"}}, false}, // flaky under go test (amqp091-go's 1-ms timer under load)
		{outcomes{stock: []string{"PASS", "PASS", "PASS"}, fuzzbox: []string{"FAIL", "PASS", "FAIL"}}, false},
		{outcomes{stock: []string{"none", "none", "none"}, fuzzbox: []string{"PASS", "PASS", "PASS"}}, true},
	} {
		if got := tc.o.steady(); got != tc.want {
			t.Errorf("%+v steady = %v", tc.o, got)
		}
	}
}

func TestRecheckCell(t *testing.T) {
	three := func(r string) []string { return []string{r, r, r} }
	seen := map[string]*outcomes{
		"TestSteady": {stock: three("PASS"), fuzzbox: three("FAIL"), instr: three("PASS")},
		"TestFlaky":  {stock: []string{"PASS", "FAIL", "PASS"}, fuzzbox: three("FAIL")},
		"TestTiming": {stock: three("PASS"), fuzzbox: three("FAIL"), instr: []string{"PASS", "FAIL", "PASS"}},
	}
	cell, ok := recheckCell([]string{"TestSteady", "TestFlaky", "TestTiming"}, seen, 9)
	if want := "DIFFER (1 of 9, in 3 runs each): TestSteady: go test PASS, fuzzbox FAIL (go test -fuzz PASS PASS PASS)"; ok || cell != want {
		t.Errorf("with a steady difference: %q, %v; want %q", cell, ok, want)
	}
	cell, ok = recheckCell([]string{"TestFlaky", "TestTiming"}, seen, 9)
	want := "agree (9); flaky, not a difference: TestFlaky (go test PASS FAIL PASS; fuzzbox FAIL FAIL FAIL); " +
		"as under go test -fuzz's instrumented build, not a difference: TestTiming (go test PASS PASS PASS; go test -fuzz PASS FAIL PASS; fuzzbox FAIL FAIL FAIL)"
	if !ok || cell != want {
		t.Errorf("without one: %q, %v; want %q", cell, ok, want)
	}
}

// TestInstrumented runs go test -fuzz on a test that fails only there (it
// reads -test.fuzz), as a test sensitive to the instrumentation's cost
// does, and on one that passes there.
func TestInstrumented(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test -fuzz")
	}
	mod := tempModule(t, `package m

import (
	"flag"
	"testing"
)

func TestUnderFuzz(t *testing.T) {
	if flag.Lookup("test.fuzz").Value.String() != "" {
		t.Fatal("slow under instrumentation")
	}
}

func TestFine(t *testing.T) {}

func FuzzX(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {})
}
`)
	results := t.TempDir()
	env := &compatEnv{logDir: results, work: t.TempDir()}
	p := compatPkg{module: "example.com/m@v1.0.0", pkg: ".", fuzz: []string{"FuzzX"}}
	loc := &compatLoc{dir: mod, target: ".", pkgDir: mod}
	seen := map[string]*outcomes{
		"TestUnderFuzz": {stock: []string{"PASS"}, fuzzbox: []string{"FAIL"}},
		"TestFine":      {stock: []string{"PASS"}, fuzzbox: []string{"FAIL"}},
	}
	guard, err := guardTestdata(mod)
	if err != nil {
		t.Fatal(err)
	}
	var note string
	env.instrumented(context.Background(), p, loc, guard, &note, []string{"TestUnderFuzz", "TestFine"}, seen)
	if note != "" {
		t.Errorf("note %q: want none (testdata restored)", note)
	}
	if got := seen["TestUnderFuzz"]; !slices.Equal(got.instr, []string{"FAIL", "FAIL", "FAIL"}) || got.kind() != diffInstrumented {
		t.Errorf("TestUnderFuzz under go test -fuzz: %v, kind %d", got.instr, got.kind())
	}
	if got := seen["TestFine"]; !slices.Equal(got.instr, []string{"PASS", "PASS", "PASS"}) || got.kind() != diffSteady {
		t.Errorf("TestFine under go test -fuzz: %v, kind %d", got.instr, got.kind())
	}
}

// tempModule returns a temporary module example.com/m whose one file,
// m_test.go, is src.
func tempModule(t *testing.T, src string) string {
	t.Helper()
	mod := t.TempDir()
	for name, data := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.21\n", "m_test.go": src} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return mod
}
