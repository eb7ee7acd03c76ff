package driver

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// TestFuzzSeveralTargets: targets of one package share the run (one build):
// each is fuzzed in turn, a failing one leaves the rotation with its
// reproducer, and the result has one entry per target. (fuzzbox fuzz's test
// of the same run checks what the command prints of it.)
func TestFuzzSeveralTargets(t *testing.T) {
	fuzzbox := testFuzzbox(t)
	dir := targetsModule(t)
	cfg := Config{Fuzz: "^Fuzz(Magic|TwoBugs|Never)$", FuzzTime: "45s", Fuzzbox: fuzzbox, CacheDir: t.TempDir(), Stderr: os.Stderr}
	targets, err := Resolve(context.Background(), cfg, []string{dir})
	if err != nil || len(targets) != 3 {
		t.Fatalf("Resolve: %v, %v", targets, err)
	}
	var mu sync.Mutex
	builds, stats := 0, map[string]int{}
	res := Fuzz(context.Background(), cfg, targets, func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch e.Type {
		case event.Build:
			builds++
		case event.Stats, event.Done:
			stats[e.Target]++
		}
	})
	if res.ExitCode != ExitFailure || res.Err != nil || len(res.Targets) != 3 {
		t.Fatalf("result %+v: want exit 1 (failures found) for 3 targets", res)
	}
	if builds != 1 || len(res.Targets[0].bin) == 0 || res.Targets[0].bin != res.Targets[1].bin || res.Targets[1].bin != res.Targets[2].bin {
		t.Errorf("%d build events, binaries %q %q %q: want one build of the package", builds, res.Targets[0].bin, res.Targets[1].bin, res.Targets[2].bin)
	}
	repro := regexp.MustCompile(`^testdata/fuzz/Fuzz\w+/[0-9a-f]{16}$`)
	for _, r := range res.Targets {
		switch r.Name {
		case "FuzzMagic", "FuzzTwoBugs":
			if len(r.Failures) != 1 || !repro.MatchString(r.Failures[0].Reproducer) || r.ExitCode != ExitFailure {
				t.Errorf("%s: failures %+v, exit %d: want one failure with its reproducer", r.Name, r.Failures, r.ExitCode)
			}
		case "FuzzNever":
			if len(r.Failures) != 0 || r.Err != "" || r.Execs == 0 || r.ExitCode != ExitOK {
				t.Errorf("FuzzNever: %+v: want executions and no failure", r)
			}
		}
		if stats[r.Name] == 0 {
			t.Errorf("no stats or done event of %s: it was not fuzzed", r.Name)
		}
	}
	for name, want := range map[string]int{"FuzzMagic": 1, "FuzzNever": 0} {
		files, _ := filepath.Glob(filepath.Join(dir, "testdata", "fuzz", name, "*"))
		if len(files) != want {
			t.Errorf("%s reproducers %v, want %d", name, files, want)
		}
	}
}

// TestFuzzPackageDoesNotBuild: in a run of several packages, one that does
// not build is reported (a warning, its result's error, exit 2) and the
// others are fuzzed, as go test ./... tests the packages that build; the
// budget goes to them.
func TestFuzzPackageDoesNotBuild(t *testing.T) {
	fuzzbox := testFuzzbox(t)
	dir := targetsModule(t)
	broken := filepath.Join(dir, "broken")
	if err := os.MkdirAll(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "package broken\n\nimport \"testing\"\n\nfunc FuzzBroken(f *testing.F) {\n\tf.Add(1)\n\tf.Fuzz(func(t *testing.T, s string) {})\n}\n"
	if err := os.WriteFile(filepath.Join(broken, "broken_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Fuzz: "^Fuzz(Never|Broken)$", FuzzTime: "4s", Fuzzbox: fuzzbox, CacheDir: t.TempDir(), Stderr: io.Discard}
	targets, err := Resolve(context.Background(), cfg, []string{dir, broken}) // FuzzNever first: the share left it is all
	if err != nil || len(targets) != 2 {
		t.Fatalf("Resolve: %v, %v", targets, err)
	}
	var mu sync.Mutex
	var warnings []string
	res := Fuzz(context.Background(), cfg, targets, func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		if e.Type == event.Warning {
			warnings = append(warnings, e.Target+": "+e.Message)
		}
	})
	if res.ExitCode != ExitError || res.Err == nil || !strings.Contains(res.Err.Error(), "FuzzBroken") {
		t.Errorf("result exit %d, error %v: want exit 2 naming FuzzBroken", res.ExitCode, res.Err)
	}
	for _, r := range res.Targets {
		switch r.Name {
		case "FuzzBroken":
			if !strings.Contains(r.Err, "does not build") || !strings.Contains(r.Err, "broken_test.go") {
				t.Errorf("FuzzBroken's error %q: want its build error", r.Err)
			}
		case "FuzzNever":
			if r.Err != "" || r.Execs == 0 || r.fuzzedFor < 3*time.Second {
				t.Errorf("FuzzNever: error %q, %d execs, fuzzed for %v: want it fuzzed for the whole 4s", r.Err, r.Execs, r.fuzzedFor)
			}
		}
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "FuzzBroken: ") || !strings.Contains(warnings[0], "is not fuzzed") {
		t.Errorf("warnings %q: want one saying FuzzBroken is not fuzzed", warnings)
	}
}

// TestFuzzRunsTestsOncePerPackage: a run of several fuzz tests runs each
// package's tests once, in its first target's turn, as go test -fuzz runs
// them before fuzzing; a package whose tests fail (under go test too) has
// none of its fuzz tests fuzzed, and the other packages' are. So does one
// whose first fuzz test's seed fails as its fuzzing starts: go test -fuzz
// of the package's other fuzz test runs that seed with the tests.
func TestFuzzRunsTestsOncePerPackage(t *testing.T) {
	fuzzbox := testFuzzbox(t)
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"a/a_test.go": `package a

import "testing"

func TestBroken(t *testing.T) { t.Fatal("broken") }

func FuzzA1(f *testing.F) { f.Fuzz(func(t *testing.T, s string) {}) }
func FuzzA2(f *testing.F) { f.Fuzz(func(t *testing.T, s string) {}) }
`,
		"b/b_test.go": `package b

import (
	"os"
	"testing"
)

func TestCount(t *testing.T) {
	f, err := os.OpenFile(os.Getenv("FUZZBOX_TEST_RUNS"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("ran\n")
	f.Close()
}

func FuzzB1(f *testing.F) { f.Fuzz(func(t *testing.T, s string) {}) }
func FuzzB2(f *testing.F) { f.Fuzz(func(t *testing.T, s string) {}) }
`,
		"c/c_test.go": `package c

import "testing"

func FuzzC1(f *testing.F) {
	f.Add("bad")
	f.Fuzz(func(t *testing.T, s string) {
		if s == "bad" {
			t.Fatal("fuzzbox-e2e: bad seed")
		}
	})
}

func FuzzC2(f *testing.F) { f.Fuzz(func(t *testing.T, s string) {}) }
`,
	}
	writeTestFiles(t, dir, files)
	runs := filepath.Join(t.TempDir(), "runs")
	t.Setenv("FUZZBOX_TEST_RUNS", runs)
	cfg := Config{Fuzz: ".", FuzzTime: "4s", Fuzzbox: fuzzbox, CacheDir: t.TempDir(), Stderr: io.Discard}
	targets, err := Resolve(context.Background(), cfg, []string{filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")})
	if err != nil || len(targets) != 6 {
		t.Fatalf("Resolve: %v, %v", targets, err)
	}
	var mu sync.Mutex
	var out strings.Builder
	res := Fuzz(context.Background(), cfg, targets, func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		out.WriteString(e.Output)
	})
	if res.ExitCode != ExitFailure {
		t.Errorf("exit %d (%v): want 1, a package's tests failed", res.ExitCode, res.Err)
	}
	for _, r := range res.Targets {
		switch {
		case strings.HasPrefix(r.Name, "FuzzA") || r.Name == "FuzzC2":
			if r.Execs != 0 || !r.prefuzzFailed || r.ExitCode != ExitFailure {
				t.Errorf("%s: %d execs, exit %d: want it not fuzzed (TestBroken fails, FuzzC1's seed fails)", r.Name, r.Execs, r.ExitCode)
			}
		case r.Name == "FuzzC1":
			if len(r.Failures) != 1 || r.Failures[0].Seed != "seed#0" {
				t.Errorf("FuzzC1: failures %+v, want its seed#0's", r.Failures)
			}
		case r.Execs == 0 || r.ExitCode != ExitOK:
			t.Errorf("%s: %d execs, exit %d: want it fuzzed", r.Name, r.Execs, r.ExitCode)
		}
	}
	for _, want := range []string{"--- FAIL: TestBroken", "FuzzA2 is not fuzzed", "FuzzC2 is not fuzzed: the seed corpus entry FuzzC1/seed#0 failed"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if b, err := os.ReadFile(runs); string(b) != "ran\n" {
		t.Errorf("package b's tests ran %q (%v): want once", b, err)
	}
}

// TestFuzzDoneForEveryTarget: every selected fuzz test gets one done
// event, also one that is not fuzzed, which says why (not_fuzzed) and has
// no status line: its package's tests failed (its own turn) or a sibling's
// seed did, its package does not build, it skipped itself, or the run was
// stopped before its turn. A fuzzed one's is the engine's.
func TestFuzzDoneForEveryTarget(t *testing.T) {
	fuzzbox := testFuzzbox(t)
	dir := t.TempDir()
	noop := "f.Fuzz(func(t *testing.T, s string) {}) }\n"
	writeTestFiles(t, dir, map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.26\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestBroken(t *testing.T) { t.Fatal(\"broken\") }\n\nfunc FuzzA1(f *testing.F) { " + noop + "func FuzzA2(f *testing.F) { " + noop,
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nvar x int = \"not an int\"\n\nfunc FuzzB(f *testing.F) { " + noop,
		"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc FuzzC1(f *testing.F) {\n\tf.Add(\"bad\")\n\tf.Fuzz(func(t *testing.T, s string) {\n\t\tif s == \"bad\" {\n\t\t\tt.Fatal(\"bad seed\")\n\t\t}\n\t})\n}\n\nfunc FuzzC2(f *testing.F) { " + noop,
		"d/d_test.go": "package d\n\nimport \"testing\"\n\nfunc FuzzD(f *testing.F) { f.Skip(\"not today\"); " + noop,
		"e/e_test.go": "package e\n\nimport \"testing\"\n\nfunc FuzzE1(f *testing.F) { " + noop + "func FuzzE2(f *testing.F) { " + noop,
	})
	cfg := Config{Fuzz: ".", FuzzTime: "4s", Fuzzbox: fuzzbox, CacheDir: t.TempDir(), Stderr: io.Discard}
	var pkgs []string
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		pkgs = append(pkgs, filepath.Join(dir, p))
	}
	targets, err := Resolve(context.Background(), cfg, pkgs)
	if err != nil || len(targets) != 8 {
		t.Fatalf("Resolve: %v, %v", targets, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := map[string][]event.Event{}
	Fuzz(ctx, cfg, targets, func(e event.Event) {
		switch {
		case e.Type == event.Start && e.Target == "FuzzE1":
			cancel() // Ctrl-C: FuzzE2 gets no turn
		case e.Type == event.Done:
			done[e.Target] = append(done[e.Target], e)
		}
	})
	want := map[string]string{"FuzzA1": event.NotFuzzedFailed, "FuzzA2": event.NotFuzzedFailed, "FuzzB": event.NotFuzzedError,
		"FuzzC1": "", "FuzzC2": event.NotFuzzedFailed, "FuzzD": event.NotFuzzedSkipped, "FuzzE1": "", "FuzzE2": event.NotFuzzedStopped}
	for name, why := range want {
		evs := done[name]
		if len(evs) != 1 {
			t.Errorf("%s: %d done events %+v, want 1", name, len(evs), evs)
			continue
		}
		e := evs[0]
		switch {
		case e.NotFuzzed != why || e.Package != "example.com/m/"+strings.ToLower(name[4:5]):
			t.Errorf("%s: done event %+v, want not_fuzzed %q, with its package", name, e, why)
		case why != "" && (e.Message == "" || e.Execs != 0 || event.Format(e) != ""):
			t.Errorf("%s: done event %+v (status line %q), want why in words, no numbers, no status line", name, e, event.Format(e))
		case why == "" && e.Execs == 0:
			t.Errorf("%s: done event %+v, want the engine's, with its executions", name, e)
		}
	}
	if m := done["FuzzB"]; len(m) == 1 && !strings.Contains(m[0].Message, "does not build") {
		t.Errorf("FuzzB's done event says %q, want its build error", m[0].Message)
	}
	// When no package builds, the run is an error, and the fuzz test still
	// gets its done event.
	var broken []event.Event
	i := slices.IndexFunc(targets, func(t Target) bool { return t.Name == "FuzzB" })
	res := Fuzz(context.Background(), cfg, targets[i:i+1], func(e event.Event) {
		if e.Type == event.Done {
			broken = append(broken, e)
		}
	})
	if res.ExitCode != ExitError || len(broken) != 1 || broken[0].NotFuzzed != event.NotFuzzedError {
		t.Errorf("FuzzB alone: exit %d, done events %+v: want exit 2 and one done event, error", res.ExitCode, broken)
	}
}

// TestSyncNames: -sync keeps one directory per fuzz test name, so a run
// that would sync two packages' FuzzX into it is refused, with the path.
func TestSyncNames(t *testing.T) {
	targets := []Target{{Package: "example.com/m/fse", Name: "FuzzCompress"}, {Package: "example.com/m/huff0", Name: "FuzzCompress"}}
	if err := syncNames(Config{Sync: "/sync"}, targets); err == nil || !strings.Contains(err.Error(), "/sync/FuzzCompress") {
		t.Errorf("syncNames = %v; want an error naming /sync/FuzzCompress", err)
	}
	if err := syncNames(Config{}, targets); err != nil {
		t.Errorf("without -sync: %v", err)
	}
	if err := syncNames(Config{Sync: "/sync"}, []Target{targets[0], {Package: "example.com/m/huff0", Name: "FuzzDecompress"}}); err != nil {
		t.Errorf("distinct names: %v", err)
	}
}

// TestTestsEvent: while the package's tests run before fuzzing (go test
// -fuzz prints nothing then), the stream says so with tests events, between
// the build event and the engine's first; a turn that runs no test has
// none.
func TestTestsEvent(t *testing.T) {
	fuzzbox := testFuzzbox(t)
	dir := slowTestModule(t, "1500 * time.Millisecond")
	for _, run := range []string{"", "^$"} {
		cfg := Config{Fuzz: "^FuzzM$", FuzzTime: "20x", Run: run, Fuzzbox: fuzzbox, CacheDir: t.TempDir(), Stderr: io.Discard}
		targets, err := Resolve(context.Background(), cfg, []string{dir})
		if err != nil {
			t.Fatal(err)
		}
		var types []string
		var tests []event.Event
		res := Fuzz(context.Background(), cfg, targets, func(e event.Event) {
			if e.Type != event.Output {
				types = append(types, e.Type)
			}
			if e.Type == event.Tests {
				tests = append(tests, e)
			}
		})
		if res.ExitCode != ExitOK {
			t.Fatalf("-run=%q: exit %d (%v)", run, res.ExitCode, res.Err)
		}
		if run == "^$" {
			if len(tests) > 0 {
				t.Errorf("-run='^$': tests events %+v, want none: no test runs", tests)
			}
			continue
		}
		if len(tests) == 0 {
			t.Fatalf("no tests event while TestSlow ran 1.5 s; events %v", types)
		}
		for _, e := range tests {
			if e.Target != "FuzzM" || e.Package != "example.com/m" || !strings.Contains(e.Message, "running the package's tests before fuzzing FuzzM") {
				t.Errorf("tests event %+v, want FuzzM's, its package and what runs", e)
			}
		}
		build, first, last := slices.Index(types, event.Build), slices.Index(types, event.Baseline), slices.Index(types, event.Tests)
		for i, ty := range types {
			if ty == event.Tests {
				last = i
			}
		}
		if build < 0 || first < 0 || !(build < slices.Index(types, event.Tests) && last < first) {
			t.Errorf("event order %v, want the tests events after build and before the first baseline", types)
		}
	}
}

// TestBuildEvent: while a package's build goes on (minutes when it
// instruments the standard library, which printed nothing), build events
// say so, before the package's tests; the printer shows them.
func TestBuildEvent(t *testing.T) {
	defer func(q, i time.Duration) { buildQuiet, buildInterval = q, i }(buildQuiet, buildInterval)
	buildQuiet, buildInterval = time.Millisecond, 50*time.Millisecond
	dir := slowTestModule(t, "0")
	cfg := Config{Fuzz: "^FuzzM$", FuzzTime: "1x", Fuzzbox: testFuzzbox(t), CacheDir: t.TempDir(), Stderr: io.Discard}
	targets, err := Resolve(context.Background(), cfg, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var builds []event.Event
	var types []string
	res := Fuzz(context.Background(), cfg, targets, func(e event.Event) {
		types = append(types, e.Type)
		if e.Type == event.Build {
			builds = append(builds, e)
		}
	})
	if res.ExitCode != ExitOK {
		t.Fatalf("exit %d (%v)", res.ExitCode, res.Err)
	}
	if len(builds) < 2 || builds[0].Message != "" {
		t.Fatalf("build events %+v, want the run's first, then notices while the build went on", builds)
	}
	for _, e := range builds[1:] {
		line := event.Format(e)
		if e.Package != "example.com/m" || !strings.HasPrefix(line, "fuzz: building the fuzzing binary of example.com/m (") {
			t.Errorf("build event %+v (line %q), want the package's, saying it builds", e, line)
		}
	}
	if last := slices.Index(types, event.Baseline); last < 0 || slices.Contains(types[last:], event.Build) {
		t.Errorf("event order %v, want every build event before the baseline", types)
	}
}

// slowTestModule writes a module whose package has FuzzM and a test that
// prints "slow test running" and sleeps for the Go expression sleep.
func slowTestModule(t *testing.T, sleep string) string {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"slow_test.go": "package m\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n\t\"time\"\n)\n\n" +
			"func TestSlow(t *testing.T) { fmt.Println(\"slow test running\"); time.Sleep(" + sleep + ") }\n\n" +
			"func FuzzM(f *testing.F) { f.Fuzz(func(t *testing.T, s string) {}) }\n",
	})
	return dir
}

// TestStopped: Ctrl-C while the package's tests run before fuzzing kills
// the fuzzing binary (the testing package handles the signal only while it
// fuzzes; it was exit 2, "the fuzzing binary did not exit normally"), and
// while the fuzzing binary is built it interrupts the go command (it was
// exit 2, "build of … interrupted"). Either way the run was stopped: exit 0
// (nothing found), a line saying so, a done event per fuzz test saying it was
// stopped, and no go test line.
func TestStopped(t *testing.T) {
	for _, tc := range []struct {
		name, sleep string
		stop        func(event.Event) bool
		said        string
	}{
		{"tests", "time.Minute", func(e event.Event) bool {
			return e.Type == event.Output && strings.Contains(e.Output, "slow test running")
		},
			"the run was stopped before fuzzing FuzzM started, while its package's tests ran"},
		{"build", "0", func(e event.Event) bool { return e.Type == event.Build },
			"the run was stopped while the fuzzing binary of example.com/m was built"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := slowTestModule(t, tc.sleep)
			cfg := Config{Fuzz: "^FuzzM$", FuzzTime: "10s", Fuzzbox: testFuzzbox(t), CacheDir: t.TempDir(), Stderr: io.Discard}
			targets, err := Resolve(context.Background(), cfg, []string{dir})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var done []event.Event
			said := false
			res := Fuzz(ctx, cfg, targets, func(e event.Event) {
				if tc.stop(e) {
					cancel() // Ctrl-C
				}
				said = said || e.Type == event.Output && strings.Contains(e.Output, tc.said)
				if e.Type == event.Done {
					done = append(done, e)
				}
			})
			if res.ExitCode != ExitOK || res.Err != nil || !said {
				t.Errorf("exit %d (%v), said so %v: want 0, no error, and %q", res.ExitCode, res.Err, said, tc.said)
			}
			if len(done) != 1 || done[0].NotFuzzed != event.NotFuzzedStopped {
				t.Errorf("done events %+v, want one saying the run was stopped", done)
			}
			if line := res.goTestLine(targets); line != "" {
				t.Errorf("go test's line %q after a stop before fuzzing, want none", line)
			}
		})
	}
}
