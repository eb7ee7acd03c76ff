package main

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestAgainstOrder: with -against, each engine that runs fuzzbox runs with
// both builds, the first alternating run by run; other engines run once.
func TestAgainstOrder(t *testing.T) {
	cfg := config{engines: []string{engineFuzzbox, engineNative, engineFuzzboxSync}, against: "/old/fuzzbox"}
	if got, want := cfg.tableEngines(), []string{engineFuzzbox, engineFuzzbox + againstSuffix, engineNative, engineFuzzboxSync, engineFuzzboxSync + againstSuffix}; !reflect.DeepEqual(got, want) {
		t.Errorf("tableEngines = %q, want %q", got, want)
	}
	for _, tt := range []struct {
		engine string
		run    int
		want   []string
	}{
		{engineFuzzbox, 1, []string{"", againstSuffix}},
		{engineFuzzbox, 2, []string{againstSuffix, ""}},
		{engineFuzzboxSync, 3, []string{"", againstSuffix}},
		{engineNative, 2, []string{""}},
	} {
		if got := cfg.runOrder(tt.engine, tt.run); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("runOrder(%s, %d) = %q, want %q", tt.engine, tt.run, got, tt.want)
		}
	}
	cfg.against = ""
	if got := cfg.runOrder(engineFuzzbox, 2); !reflect.DeepEqual(got, []string{""}) {
		t.Errorf("runOrder without -against = %q, want one run", got)
	}
}

// TestAgainstStats: the comparison's statistics separate runs that differ
// and not runs that do not.
func TestAgainstStats(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	sooner := []float64{1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9}
	later := []float64{3, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6, 3.7, 3.8, 20}
	if p := pSooner(sooner, later); p != 1 {
		t.Errorf("pSooner(sooner, later) = %v, want 1", p)
	}
	if p := pSooner(later, sooner); p != 0 {
		t.Errorf("pSooner(later, sooner) = %v, want 0", p)
	}
	if p := pSooner(sooner, sooner); p != 0.5 {
		t.Errorf("pSooner of the same runs = %v, want 0.5", p)
	}
	if p := permutationP(sooner, later, r); p > 0.01 {
		t.Errorf("permutationP of separate runs = %v, want < 0.01", p)
	}
	if p := permutationP(sooner, sooner, r); p != 1 {
		t.Errorf("permutationP of the same runs = %v, want 1", p)
	}
	mixed := []float64{1.05, 3.05, 1.25, 3.25, 1.45, 3.45, 1.65, 3.65, 1.85, 3.85}
	if p := permutationP(mixed, append(append([]float64(nil), sooner[:5]...), later[:5]...), r); p < 0.2 {
		t.Errorf("permutationP of runs drawn alike = %v, want ≥ 0.2", p)
	}
	pairs := []pair{{build: []float64{1, 1, 1}, against: []float64{2, 2, 2}}, {build: []float64{4, 4, 4}, against: []float64{2, 2, 2}}}
	if g := geoMean(medianRatios(pairs, nil)); math.Abs(g-1) > 1e-9 {
		t.Errorf("geoMean of 0.5 and 2 = %v, want 1", g)
	}
	if lo, hi := geoInterval(pairs, r); lo != 1 || hi != 1 {
		t.Errorf("geoInterval of constant runs = %v–%v, want 1–1", lo, hi)
	}
}

// TestPrintComparison: a table of two builds has a row per target where
// either found the bug, a miss counting as the budget, and the geometric
// mean; the main table names -against's engine apart.
func TestPrintComparison(t *testing.T) {
	var results []runResult
	for i := range 6 {
		results = append(results,
			runResult{Target: "a", Engine: engineFuzzbox, Run: i + 1, Found: true, Failed: true, TTF: 1},
			runResult{Target: "a", Engine: engineFuzzbox + againstSuffix, Run: i + 1, Found: i < 3, Failed: i < 3, TTF: 2},
			runResult{Target: "b", Engine: engineFuzzbox, Run: i + 1},
			runResult{Target: "b", Engine: engineFuzzbox + againstSuffix, Run: i + 1})
	}
	cfg := config{set: "planted", engines: []string{engineFuzzbox}, against: "/old/fuzzbox", fuzzbox: "/new/fuzzbox",
		fuzztime: 10 * time.Second, parallel: 1, runs: 6}
	var buf bytes.Buffer
	printTable(&buf, cfg, []target{{name: "a"}, {name: "b"}}, results)
	printComparison(&buf, cfg, []target{{name: "a"}, {name: "b"}}, results)
	out := buf.String()
	for _, want := range []string{
		"fuzzbox (against) found",
		"| a | fuzzbox | 6/6, 1.00 s | 3/6, 6.00 s | 0.17 | 1.00 | ",
		"over the 1 rows: 0.17",
		"/new/fuzzbox (build) against /old/fuzzbox (against)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| b | fuzzbox |") {
		t.Errorf("a target neither build found has a row:\n%s", out)
	}
}

// TestAgainstFlags: -against wants a binary there is and an engine that
// runs fuzzbox, and a set whose targets the engines fuzz.
func TestAgainstFlags(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fuzzbox")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o777); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseFlags([]string{"-engines=fuzzbox-sync", "-against=" + bin}, new(bytes.Buffer))
	if err != nil || cfg.against != bin {
		t.Fatalf("parseFlags = %+v, %v; want -against kept", cfg, err)
	}
	for _, args := range [][]string{
		{"-engines=native", "-against=" + bin},
		{"-against=" + filepath.Join(t.TempDir(), "missing")},
		{"-set=compat", "-engines=fuzzbox", "-against=" + bin},
	} {
		if _, err := parseFlags(args, new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "-against") {
			t.Errorf("parseFlags(%q) error = %v, want one about -against", args, err)
		}
	}
}

// TestAgainstRescore: a results file of two builds prints the same
// comparison again under -rescore.
func TestAgainstRescore(t *testing.T) {
	var results []runResult
	for i := range 4 {
		results = append(results,
			runResult{Target: "checksum", Engine: engineFuzzboxSync, Run: i + 1, Failed: true, Kind: "panic", TTF: 1},
			runResult{Target: "checksum", Engine: engineFuzzboxSync + againstSuffix, Run: i + 1, Failed: true, Kind: "panic", TTF: 4})
	}
	cfg := config{set: "planted", engines: []string{engineFuzzboxSync}, fuzzbox: "/new/fuzzbox", against: "/old/fuzzbox", fuzztime: 20 * time.Second, parallel: 2, runs: 4}
	path := filepath.Join(t.TempDir(), "results.json")
	t.Chdir("..") // the sets' paths are the repository's
	if err := writeResults(path, cfg, results); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rescoreResults(path, &buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| checksum | fuzzbox N×1 synced | 4/4, 1.00 s | 4/4, 4.00 s | 0.25 | 1.00 |", "/new/fuzzbox (build) against /old/fuzzbox (against)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("rescored output lacks %q:\n%s", want, buf.String())
		}
	}
}
