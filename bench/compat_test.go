package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadCompatList(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "compat.txt")
	os.WriteFile(list, []byte(`# header
example.com/m@v1.2.3   .        FuzzA,FuzzB   # a note
example.com/m@v1.2.3   sub/pkg  FuzzC
std                    html     FuzzEscapeUnescape
example.com/t@v0.1.0   .        FuzzT         fuzz,extra
`), 0o666)
	pkgs, err := readCompatList(list)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 4 || pkgs[3].tags != "fuzz,extra" || pkgs[0].tags != "" || pkgs[0].name() != "example.com/m" || !slices.Equal(pkgs[0].fuzz, []string{"FuzzA", "FuzzB"}) ||
		pkgs[0].comment != "a note" || pkgs[1].name() != "example.com/m/sub/pkg" || !pkgs[2].std() || pkgs[2].name() != "html" {
		t.Errorf("parsed %+v", pkgs)
	}
	if got := selectCompat(pkgs, []string{"sub/"}); len(got) != 1 || got[0].pkg != "sub/pkg" {
		t.Errorf("selectCompat(sub/) = %+v", got)
	}
	for _, bad := range []string{"example.com/m . FuzzA\n", "example.com/m@v1 . Fuzzy\n", "example.com/m@v1 FuzzA\n", "example.com/m@v1 . FuzzA tags more\n"} {
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
    --- PASS: FuzzX/seed#0 (0.00s)`, "\n") {
		stock.line(l)
	}
	for _, l := range strings.Split(`--- PASS: TestA (0.00s)
--- PASS: TestB (0.01s)
--- SKIP: TestC (0.00s)
--- PASS: FuzzX (0.00s)
--- FAIL: FuzzX (3.00s)
--- PASS: TestOnlyHere (0.00s)`, "\n") {
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

func TestCompatEvents(t *testing.T) {
	c := &compatEvents{results: testResults{}, rates: newFuzzboxParser(nil)}
	for _, l := range []string{
		`{"type":"output","output":"--- PASS: TestA (0.00s)\n","elapsed_ms":5}`,
		`--- FAIL: TestStderr (0.00s)`,
		`{"type":"internal_error","message":"fuzzbox's binary failed TestB\nfatal error: fault","elapsed_ms":6}`,
		`{"type":"start","elapsed_ms":10}`,
		`{"type":"failure","kind":"panic","message":"panic: boom","reproducer":"testdata/fuzz/FuzzX/0123456789abcdef","elapsed_ms":900}`,
		`{"type":"failure","kind":"panic","duplicate":true,"elapsed_ms":950}`,
		`{"type":"done","execs":1000,"execs_per_sec":500,"elapsed_ms":2010}`,
	} {
		c.line(l)
	}
	if c.results["TestA"] != "PASS" || c.results["TestStderr"] != "FAIL" {
		t.Errorf("results = %v", c.results)
	}
	if !slices.Equal(c.internal, []string{"fuzzbox's binary failed TestB"}) {
		t.Errorf("internal = %q", c.internal)
	}
	if len(c.failures) != 1 || c.failures[0].Reproducer != "testdata/fuzz/FuzzX/0123456789abcdef" {
		t.Errorf("failures = %+v", c.failures)
	}
	var r runResult
	c.rates.result(&r)
	if r.ExecsPerSec != 500 {
		t.Errorf("execs/s = %v, want 500 (1000 over the 2 s since start)", r.ExecsPerSec)
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
		{compatRow{Agree: true, Findings: []string{"panic: x (go test reproduces: yes)"}}, true},
	} {
		if got := tc.r.clean(); got != tc.want {
			t.Errorf("%+v clean = %v", tc.r, got)
		}
	}
	if !isGenerated("0123456789abcdef") || isGenerated("seed1") || isGenerated("0123456789ABCDEF") {
		t.Error("isGenerated")
	}
}

// TestCompatListParses keeps bench/compat.txt well-formed.
func TestCompatListParses(t *testing.T) {
	pkgs, err := readCompatList(filepath.Join("compat.txt"))
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
}
