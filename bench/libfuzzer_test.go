package main

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLibFuzzerParser(t *testing.T) {
	p := newLibFuzzerParser()
	for i, s := range []string{
		"INFO: Seed: 1",
		"#2\tINITED cov: 79 ft: 79 corp: 1/14b exec/s: 0 rss: 32Mb",
		"#4096\tpulse  cov: 81 ft: 81 corp: 3/26b lim: 43 exec/s: 2048 rss: 37Mb",
		"    panic: BUG magic32: tag",
		"==123== ERROR: libFuzzer: deadly signal",
		"artifact_prefix='./'; Test unit written to ./crash-abc",
		"stat::number_of_executed_units: 5000",
	} {
		p.line(time.Duration(i)*time.Second, s)
	}
	var r runResult
	p.result(&r)
	if !r.Failed || r.Kind != "crash" || r.TTF != 3 || r.Execs != 5000 || r.ExecsToFailure != 5000 || r.Message != "panic: BUG magic32: tag" ||
		r.Reproducer != "./crash-abc" || !strings.HasPrefix(r.FailText, "panic: BUG magic32") {
		t.Errorf("result = %+v", r)
	}
	p = newLibFuzzerParser()
	p.line(0, "#2\tINITED cov: 1")
	p.line(10*time.Second, "==1== ERROR: libFuzzer: timeout after 10 seconds")
	p.line(11*time.Second, "Test unit written to ./timeout-1")
	r = runResult{}
	p.result(&r)
	if r.Kind != "hang" || r.TTF != 10 {
		t.Errorf("timeout: %+v", r)
	}
	// The rate counts the executions after the seed corpus; a seed corpus
	// that outlasts the budget leaves no rate.
	for _, c := range []struct {
		done time.Duration
		want float64
	}{{25*time.Second + 10*time.Millisecond, 0}, {30 * time.Second, 100}} {
		p = newLibFuzzerParser()
		p.line(25*time.Second, "#1000\tINITED cov: 8671 ft: 40588 corp: 900/1Mb exec/s: 40 rss: 300Mb")
		p.line(c.done, "#1500\tDONE   cov: 8671 ft: 40588 corp: 900/1Mb lim: 4096 exec/s: 60 rss: 300Mb")
		r = runResult{}
		p.result(&r)
		if r.ExecsPerSec != c.want || r.Execs != 1500 {
			t.Errorf("seeds done at 25 s, DONE at %v: %v execs/s, %d execs; want %v and 1500", c.done, r.ExecsPerSec, r.Execs, c.want)
		}
	}
}

func TestRewriteForGo118(t *testing.T) {
	dir := t.TempDir()
	src := "package x\n\nimport \"testing\"\n\nfunc FuzzX(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, b []byte) {})\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := rewriteForGo118(dir, "FuzzX"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "x_test.go_fuzz_.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "func FuzzX(f *go118fuzzbuildutils.F)") || !strings.Contains(string(got), `go118fuzzbuildutils "github.com/AdamKorcz/go-118-fuzz-build/testing"`) ||
		!strings.Contains(string(got), "f.Fuzz(func(t *testing.T, b []byte) {\n\t\tfuzzboxBenchCall()}") {
		t.Errorf("rewritten file:\n%s", got)
	}
	counter, err := os.ReadFile(filepath.Join(dir, "fuzzbox_bench_calls.go"))
	if err != nil || !strings.HasPrefix(string(counter), "package x\n") || !strings.Contains(string(counter), `"`+go118CallsFile+`"`) {
		t.Errorf("count file (%v):\n%s", err, counter)
	}
	if _, err := os.Stat(filepath.Join(dir, "x_test.go")); err == nil {
		t.Error("the test file is still there")
	}
	if err := rewriteForGo118(dir, "FuzzMissing"); err == nil {
		t.Error("no error for a missing fuzz test")
	}
}

func TestAddGo118Import(t *testing.T) {
	block := "package x\n\nimport (\n\t\"bytes\"\n\t\"testing\"\n)\n"
	got := addGo118Import(block)
	if want := "import (\n\t" + go118Import + "\n\t\"bytes\"\n\t\"testing\"\n)\n"; !strings.Contains(got, want) {
		t.Errorf("import block: got\n%s", got)
	}
	plain := addGo118Import("package x\n\nimport \"testing\"\n")
	if !strings.Contains(plain, "import (\n\t\"testing\"\n\n\t"+go118Import+"\n)") {
		t.Errorf("plain import: got\n%s", plain)
	}
}

// TestCountGo118CallsTargets: every bench target's fuzz test gets the count
// of its fuzz function's calls.
func TestCountGo118CallsTargets(t *testing.T) {
	files, _ := filepath.Glob("targets/*/*_test.go")
	more, _ := filepath.Glob("realworld/*/*_test.go")
	n := 0
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !fuzzFuncRE.Match(src) {
			continue
		}
		n++
		if _, _, err := countGo118Calls(string(src)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if n < 20 {
		t.Errorf("%d fuzz test files, want the bench's targets", n)
	}
}

// TestCountCalls: a go-118 run's executions are the calls in its count
// file; libFuzzer's own count is kept apart.
func TestCountCalls(t *testing.T) {
	file := filepath.Join(t.TempDir(), go118CallsFile)
	if err := os.WriteFile(file, []byte{0x10, 0x27, 0, 0, 0, 0, 0, 0}, 0o666); err != nil {
		t.Fatal(err)
	}
	r := runResult{Execs: 15000, FuzzS: 2, ExecsPerSec: 7500, Failed: true, ExecsToFailure: 15000}
	if err := r.countCalls(file); err != nil {
		t.Fatal(err)
	}
	if r.Execs != 10000 || r.EngineExecs != 15000 || r.ExecsPerSec != 5000 || r.ExecsToFailure != 10000 {
		t.Errorf("after countCalls: %+v", r)
	}
	if err := (&runResult{}).countCalls(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("no error for a missing count file")
	}
}

// TestLibFuzzerParserFuzzboxReport: a fuzzbox build's failure is named by
// the first line of testing's report, and the INITED line's coverage and
// features are kept.
func TestLibFuzzerParserFuzzboxReport(t *testing.T) {
	p := newLibFuzzerParser()
	for i, s := range []string{
		"#1058\tINITED cov: 4630 ft: 17448 corp: 900/40Kb exec/s: 0 rss: 90Mb",
		"",
		"--- fuzzbox: FuzzExpr failed on this input:",
		"--- FAIL: FuzzExpr (0.00s)",
		"    fuzz_test.go:92: reflect.Value.Slice: slice index out of bounds (1:1)",
		"         | take(list, -i32)",
		"==22538== ERROR: libFuzzer: deadly signal",
		"Test unit written to /tmp/a/crash-1",
	} {
		p.line(time.Duration(i)*time.Second, s)
	}
	var r runResult
	p.result(&r)
	if p.initedCov != 4630 || p.initedFt != 17448 || r.Message != "fuzz_test.go:92: reflect.Value.Slice: slice index out of bounds (1:1)" || r.Kind != "crash" {
		t.Errorf("cov %d ft %d, result %+v", p.initedCov, p.initedFt, r)
	}
}

// TestLFCompatTable: a row that did not build, one that found what go test
// reproduces, one that found what it does not; only the last two count as
// findings and the first and last are not clean.
func TestLFCompatTable(t *testing.T) {
	rows := []lfCompatRow{
		{Module: "example.com/a@v1.0.0", Package: ".", Fuzz: "FuzzA", BuildError: "exit status 1 | x"},
		{Module: "example.com/b@v1.0.0", Package: "p", Fuzz: "FuzzB", SeedsCov: 10, SeedsFeatures: 20, SeedsS: 0.5, ExecsPerSec: 1234, Finding: "crash: boom (go test reproduces: yes)"},
		{Module: "example.com/c@v1.0.0", Package: "q", Fuzz: "FuzzC", SeedsCov: 1, SeedsFeatures: 2, SeedsS: 0.1, ExecsPerSec: 9, Finding: "hang: slow (go test reproduces: NO: exit 0)", Unreproduced: true},
	}
	var b strings.Builder
	printLFCompatTable(&b, config{compattime: 10 * time.Second}, rows)
	out := b.String()
	for _, want := range []string{
		"| example.com/a@v1.0.0 | . | FuzzA | FAILED: exit status 1 / x | — | — | — | — |",
		"| example.com/b@v1.0.0 | p | FuzzB | ok | 10 / 20 in 0.50 s | 1234 | crash: boom (go test reproduces: yes) | — |",
		"2 of 3 built; 2 finding(s).",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if rows[0].clean() || !rows[1].clean() || rows[2].clean() {
		t.Errorf("clean: %v %v %v, want false true false", rows[0].clean(), rows[1].clean(), rows[2].clean())
	}
}

// TestLibFuzzerArgs checks the libFuzzer command lines of both binaries:
// fuzzbox's with its seeds, dictionary and value profiling, go-118's bare
// or, with -go118valueprofile, with value profiling only.
func TestLibFuzzerArgs(t *testing.T) {
	dir := t.TempDir()
	zipPath := filepath.Join(dir, "seeds.zip")
	writeZip(t, zipPath, map[string]string{"seed-1": "hello"})
	b := lfBinaries{fuzzbox: filepath.Join(dir, "fb"), go118: "g118", seedZip: zipPath}
	if err := os.WriteFile(b.fuzzbox+".options", []byte("# a comment\n[libfuzzer]\ndict = fb.dict\nmax_len = 64\n[afl]\nx = 1\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	cfg := config{fuzztime: 15 * time.Second}
	for _, c := range []struct {
		engine string
		vp     bool
		want   string
	}{
		{engineLibFuzzer, false, "FB -max_total_time=15 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -dict=FB.dict -max_len=64 CORPUS"}, // its .options' [libfuzzer] section
		{engineGo118, false, "g118 -max_total_time=15 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 CORPUS"},
		{engineGo118, true, "g118 -max_total_time=15 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -use_value_profile=1 CORPUS"},
	} {
		run := filepath.Join(dir, c.engine+fmt.Sprint(c.vp))
		cfg.go118ValueProfile = c.vp
		bin := map[string]string{engineLibFuzzer: b.fuzzbox, engineGo118: b.go118}[c.engine]
		argv, err := libFuzzerArgs(cfg, c.engine, bin, b, run)
		if err != nil {
			t.Fatal(err)
		}
		corpusDir := filepath.Join(run, "corpus")
		if got := strings.ReplaceAll(strings.ReplaceAll(strings.Join(argv, " "), corpusDir, "CORPUS"), b.fuzzbox, "FB"); got != c.want {
			t.Errorf("%s, value profile %v:\n got %s\nwant %s", c.engine, c.vp, got, c.want)
		}
		seeds, _ := os.ReadDir(corpusDir)
		if want := map[bool]int{true: 1, false: 0}[c.engine == engineLibFuzzer]; len(seeds) != want {
			t.Errorf("%s: %d seeds in the corpus, want %d", c.engine, len(seeds), want)
		}
	}
}

// writeZip writes a zip file of the named contents.
func writeZip(t *testing.T, path string, files map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for name, data := range files {
		fw, err := w.Create(name)
		if err == nil {
			_, err = fw.Write([]byte(data))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
