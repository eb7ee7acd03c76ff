package driver

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

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
