package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// TestFuzzSeveralTargets: with a -fuzz matching several fuzz tests, each
// one's status lines are printed with its name, the exit status is 1 when one
// failed, and the summary lists them all. (The driver's TestFuzzSeveralTargets
// checks the run itself: rotation, results, reproducers.)
func TestFuzzSeveralTargets(t *testing.T) {
	dir := e2eModule(t, "targets")
	r := e2eFuzz(t, dir, "-fuzz=^Fuzz(Magic|TwoBugs|Never)$", "-fuzztime=45s", ".")
	if r.code != 1 {
		t.Fatalf("want exit 1 (failures found)\n%s", r)
	}
	for _, want := range []string{
		`(?m)^\[FuzzMagic\] fuzz: elapsed: `,
		`(?m)^\[FuzzNever\] fuzz: elapsed: `,
		`(?m)^fuzzbox: 3 fuzz tests:$`,
		`(?m)^  FAIL  example\.com/targets\.FuzzMagic +panic -> testdata/fuzz/FuzzMagic/[0-9a-f]{16} \(new bucket [0-9a-f]{16}, 1×\)$`,
		`(?m)^  FAIL  example\.com/targets\.FuzzTwoBugs +(panic|fail) -> testdata/fuzz/FuzzTwoBugs/[0-9a-f]{16} \(new bucket [0-9a-f]{16}, 1×\)$`,
		`(?m)^  ok    example\.com/targets\.FuzzNever +\d+ execs$`,
	} {
		if !regexp.MustCompile(want).MatchString(r.stdout) {
			t.Errorf("output does not match %s\n%s", want, r)
		}
	}
}

// TestCorpusMinimize: fuzzbox corpus minimize deletes the generated entries
// that add no coverage, keeps one of each equivalent group, and never
// touches the seeds.
func TestCorpusMinimize(t *testing.T) {
	dir := e2eModule(t, "targets")
	cache := filepath.Join(dir, ".cache", "FuzzNever")
	// FuzzNever branches on len(b) > 3 and b[0] == 'x': the three "x..."
	// entries reach the same coverage, which the seed "seed" does not.
	for _, v := range []string{"xaaa1", "xbbb2", "xccc3"} {
		data, err := corpus.Marshal([]byte(v))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := corpus.Write(cache, data); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(e2eBin(t), "corpus", "minimize", "-fuzz=^FuzzNever$", "-cachedir="+filepath.Join(dir, ".cache"), ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("fuzzbox corpus minimize: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "pruned: 2 redundant cache entries") {
		t.Errorf("output does not report 2 pruned entries:\n%s", out)
	}
	entries, err := corpus.ReadDir(cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	xs := 0
	for _, e := range entries {
		s := string(e.Values[0].([]byte))
		left = append(left, s)
		if strings.HasPrefix(s, "x") {
			xs++
		}
	}
	if len(entries) != 1 || xs != 1 {
		t.Errorf("cache holds %q, want one of the x entries", left)
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata")); !os.IsNotExist(err) {
		t.Errorf("minimize wrote into the module: %v", err)
	}
	// Without a generated corpus there is nothing to minimize, which it
	// says; it ran the seeds and made the directory, silently.
	none := filepath.Join(t.TempDir(), "none")
	cmd = exec.Command(e2eBin(t), "corpus", "minimize", "-fuzz=^FuzzNever$", "-cachedir="+none, ".")
	cmd.Dir = dir
	out, err = cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "no generated corpus in "+filepath.Join(none, "FuzzNever")+": nothing to minimize") {
		t.Errorf("minimize without a generated corpus: %v\n%s", err, out)
	}
	if _, err := os.Stat(none); !os.IsNotExist(err) {
		t.Errorf("minimize made the cache directory it found missing: %v", err)
	}
}
