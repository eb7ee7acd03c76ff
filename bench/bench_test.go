package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// feed sends lines to p, one second apart starting at 1s.
func feed(p lineParser, lines string) runResult {
	for i, l := range strings.Split(lines, "\n") {
		p.line(time.Duration(i+1)*time.Second, l)
	}
	var r runResult
	p.result(&r)
	return r
}

func TestNativeParser(t *testing.T) {
	tests := []struct {
		desc      string
		out       string
		found     bool
		kind      string
		ttf, rate float64
	}{
		{desc: "no failure", out: `fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed
fuzz: elapsed: 0s, gathering baseline coverage: 3/3 completed, now fuzzing with 2 workers
fuzz: elapsed: 3s, execs: 105675 (35218/sec), new interesting: 9 (total: 12)
fuzz: elapsed: 8s, execs: 291381 (36398/sec), new interesting: 10 (total: 13)
PASS`, rate: 291381.0 / 8},
		{desc: "panic", out: `fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed
fuzz: elapsed: 3s, execs: 3000 (1000/sec), new interesting: 0 (total: 3)
fuzz: minimizing 41-byte failing input file
fuzz: elapsed: 4s, minimizing
--- FAIL: FuzzX (4.10s)
    --- FAIL: FuzzX (0.00s)
        testing.go:1591: panic: BUG easy: interpreter line with bang flag
            goroutine 7 [running]:
    Failing input written to testdata/fuzz/FuzzX/ef5da380f0fe35dc
    To re-run:
    go test -run=FuzzX/ef5da380f0fe35dc
FAIL`, found: true, kind: "panic", ttf: 2, rate: 1000},
		{desc: "hang", out: `fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed
--- FAIL: FuzzWalk (10.21s)
    fuzzing process hung or terminated unexpectedly: exit status 2
    Failing input written to testdata/fuzz/FuzzWalk/582528ddfad69eb5
FAIL`, found: true, kind: "hung or exited", ttf: 1},
		{desc: "t.Fatal", out: `fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed
--- FAIL: FuzzQ (1.00s)
    --- FAIL: FuzzQ (0.00s)
        quote_test.go:12: free order
    Failing input written to testdata/fuzz/FuzzQ/00`, found: true, kind: "fail", ttf: 1},
		{desc: "build failure", out: `# fuzzbox.dev/x
./x.go:3:1: syntax error
FAIL	fuzzbox.dev/x [build failed]`},
	}
	for _, tt := range tests {
		r := feed(newNativeParser(), tt.out)
		if r.Failed != tt.found || r.Kind != tt.kind || r.TTF != tt.ttf || r.ExecsPerSec != tt.rate {
			t.Errorf("%s: failed=%v kind=%q ttf=%v rate=%v, want %v %q %v %v", tt.desc,
				r.Failed, r.Kind, r.TTF, r.ExecsPerSec, tt.found, tt.kind, tt.ttf, tt.rate)
		}
	}
}

func TestFuzzboxParser(t *testing.T) {
	out := `{"type":"build","elapsed_ms":0}
not json
{"type":"start","elapsed_ms":2000}
{"type":"coverage","elapsed_ms":2100,"corpus":2}
{"type":"coverage","elapsed_ms":2300,"corpus":3,"imported":true}
{"type":"coverage","elapsed_ms":2301,"corpus":4}
{"type":"stats","elapsed_ms":5000,"execs":30000,"execs_per_sec":10000}
{"type":"failure","elapsed_ms":6500,"kind":"oom","message":"--- FAIL: FuzzD (0.00s)\n    rss 2.1 GB","reproducer":"testdata/fuzz/FuzzD/1"}
{"type":"failure","elapsed_ms":7000,"kind":"panic"}
{"type":"done","elapsed_ms":8000,"execs":60000,"found":true}`
	r := feed(newFuzzboxParser(nil), out)
	if !r.Failed || r.Kind != "oom" || r.TTF != 4.5 || r.ExecsPerSec != 10000 || r.Execs != 60000 {
		t.Errorf("got %+v, want the first failure (oom at 4.5s) and 60000 execs in 6s", r)
	}
	// 30000 execs at 5 s, at 10000/s: 45000 at the failure at 6.5 s.
	if r.ExecsToFailure != 45000 || r.Message != "rss 2.1 GB" || !strings.HasSuffix(r.FailText, "rss 2.1 GB") {
		t.Errorf("got %d execs to failure and text %q, want 45000 and the failure message", r.ExecsToFailure, r.FailText)
	}
	if r.Note == "" {
		t.Error("a non-JSON line was not noted")
	}
	if r.Early != 2 {
		t.Errorf("%v inputs in the first 300 ms, want 2 (one found, one imported)", r.Early)
	}
	r = feed(newFuzzboxParser(nil), `{"type":"start","elapsed_ms":0}
{"type":"done","elapsed_ms":10000,"execs":5000}`)
	if r.Failed || r.ExecsPerSec != 500 {
		t.Errorf("got %+v, want not found at 500 execs/s", r)
	}
	r = feed(newFuzzboxParser(nil), `{"type":"done","elapsed_ms":3000,"not_fuzzed":"failed","message":"its package's tests failed"}`)
	if r.Execs != 0 || r.FuzzS != 0 || r.ExecsPerSec != 0 {
		t.Errorf("got %+v, want no fuzzing time nor rate for a test not fuzzed", r)
	}
}

// TestFuzzboxParserKeepGoing: with -keepgoing, the run is scored by the
// first failure that is the known bug; the ones before are listed.
func TestFuzzboxParserKeepGoing(t *testing.T) {
	out := `{"type":"start","elapsed_ms":1000}
{"type":"stats","elapsed_ms":3000,"execs":2000,"execs_per_sec":1000}
{"type":"minimizing","elapsed_ms":21000,"kind":"hang","message":"fuzzbox: hang: the input ran longer than the timeout"}
{"type":"failure","elapsed_ms":29000,"kind":"hang","message":"fuzzbox: hang: the input ran longer than the timeout"}
{"type":"failure","elapsed_ms":30000,"kind":"hang","message":"fuzzbox: hang: again","duplicate":true}
{"type":"stats","elapsed_ms":31000,"execs":9000,"execs_per_sec":1000}
{"type":"minimizing","elapsed_ms":41000,"kind":"panic","message":"panic: slice bounds out of range\ngjson.squash(...)"}
{"type":"failure","elapsed_ms":42000,"kind":"panic","message":"panic: slice bounds out of range\ngjson.squash(...)"}
{"type":"done","elapsed_ms":61000,"execs":60000}`
	known := func(kind, text string) bool { return strings.Contains(text, "gjson.squash") }
	r := feed(newFuzzboxParser(known), out)
	if !r.Failed || r.Kind != "panic" || r.TTF != 40 || r.ExecsToFailure != 19000 {
		t.Errorf("got kind %q ttf %v execs %d, want the squash panic found at 40 s after 19000 execs", r.Kind, r.TTF, r.ExecsToFailure)
	}
	if len(r.Earlier) != 1 || !strings.HasPrefix(r.Earlier[0], "hang at 20.0s: fuzzbox: hang") {
		t.Errorf("earlier failures = %q, want the hang at 20 s", r.Earlier)
	}
	r = feed(newFuzzboxParser(func(string, string) bool { return false }), out)
	if r.Kind != "hang" || r.TTF != 20 || len(r.Earlier) != 0 {
		t.Errorf("no known bug: got kind %q ttf %v earlier %q, want the first failure (hang at 20 s)", r.Kind, r.TTF, r.Earlier)
	}
}

func TestSummarizeAndMedian(t *testing.T) {
	results := []runResult{
		{Target: "a", Engine: engineNative, Found: true, TTF: 9, ExecsPerSec: 100, FuzzS: 9, Kind: "panic"},
		{Target: "a", Engine: engineNative, Found: false, ExecsPerSec: 300, FuzzS: 60},
		{Target: "a", Engine: engineNative, Found: true, TTF: 3, ExecsPerSec: 200, FuzzS: 6, Kind: "panic"},
		{Target: "a", Engine: engineNative, Found: true, TTF: 0.1, ExecsPerSec: 5, FuzzS: 0.1, Kind: "panic"},
		{Target: "b", Engine: engineNative, Found: true, TTF: 1, ExecsPerSec: 7, FuzzS: 1},
		{Target: "a", Engine: engineFuzzbox, Found: true, TTF: 1, Kind: "hang"},
	}
	s := summarize(results, "a", engineNative)
	if s.runs != 4 || s.found != 3 || s.medianTTF != 3 || s.medianRate != 200 || strings.Join(s.kinds, ",") != "panic" {
		t.Errorf("summarize = %+v, want 4 runs, 3 found, median TTF 3, rate 200 (short run left out), kind panic", s)
	}
	if s := summarize(results, "b", engineNative); s.medianRate != 7 {
		t.Errorf("summarize(b) rate = %v, want 7 from its only (short) run", s.medianRate)
	}
	if m := median(nil); m != 0 {
		t.Errorf("median(nil) = %v", m)
	}
}

func TestFindTargets(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module x\n")
	write("one/one_test.go", "package one\nfunc FuzzOne(f *testing.F) {}\n")
	write("two/two_test.go", "package two\nfunc FuzzA(f *testing.F) {}\nfunc FuzzB(f *testing.F) {}\n")
	write("none/none.go", "package none\n")
	write("twin/twin_test.go", "package twin\nfunc FuzzT(f *testing.F) {}\n")
	write("twin/bytes_test.go", "package twin\nfunc FuzzTBytes(f *testing.F) {}\n")
	if _, err := findTargets(root, nil); err == nil {
		t.Error("findTargets accepted a package with two Fuzz functions")
	}
	ts, err := findTargets(root, []string{"one"})
	if err != nil || len(ts) != 1 || ts[0].fuzz != "FuzzOne" {
		t.Errorf("findTargets(one) = %+v, %v", ts, err)
	}
	if _, err := findTargets(root, []string{"none"}); err == nil {
		t.Error("findTargets accepted a package without a Fuzz function")
	}
	ts, err = findTargets(root, []string{"twin", "one"})
	if err != nil || len(ts) != 2 || ts[0].fuzz != "FuzzT" || ts[0].bytesFuzz != "FuzzTBytes" || ts[0].go118Fuzz() != "FuzzTBytes" ||
		ts[1].bytesFuzz != "" || ts[1].go118Fuzz() != "FuzzOne" {
		t.Errorf("findTargets(twin, one) = %+v, %v", ts, err)
	}
	write("one/testdata/fuzz/FuzzOne/e71cbc728e29145e", "go test fuzz v1\n[]byte(\"x\")\n")
	if _, err := findTargets(root, []string{"one"}); err == nil || !strings.Contains(err.Error(), "left by a run outside the bench") {
		t.Errorf("findTargets accepted a target with a leftover reproducer: %v", err)
	}
}

func TestSnapshotRestore(t *testing.T) {
	root := t.TempDir()
	keep := filepath.Join(root, "keep.go")
	if err := os.WriteFile(keep, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	s, err := snapshot(root)
	if err != nil {
		t.Fatal(err)
	}
	crasher := filepath.Join(root, "testdata", "fuzz", "FuzzX", "abc")
	if err := os.MkdirAll(filepath.Dir(crasher), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(crasher, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := s.restore(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "testdata")); !os.IsNotExist(err) {
		t.Errorf("testdata still there after restore: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("restore removed a file that was there before: %v", err)
	}
}

// TestStopped: a command killed at its timeout says so; one killed because
// the bench was stopped does not claim a timeout it never reached.
func TestStopped(t *testing.T) {
	if got := stopped(context.DeadlineExceeded, 30*time.Minute).Error(); got != "killed after 30m0s" {
		t.Errorf("timeout: %q", got)
	}
	if got := stopped(context.Canceled, 30*time.Minute).Error(); strings.Contains(got, "after") || !strings.Contains(got, "bench was stopped") {
		t.Errorf("interrupt: %q", got)
	}
}
