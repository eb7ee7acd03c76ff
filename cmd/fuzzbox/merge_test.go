package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver"
)

// mergeModule's fuzz test has one branch per first byte class, so entries
// differ in coverage in a known way.
var mergeModule = map[string]string{
	"go.mod": "module example.com/merge\n\ngo 1.21\n",
	"m_test.go": `package merge

import "testing"

var sink int

func FuzzM(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, n int) {
		switch {
		case len(s) > 0 && s[0] == 'a':
			sink++
		case len(s) > 0 && s[0] == 'b':
			sink--
		}
	})
}
`,
}

func writeEntry(t *testing.T, dir string, vals ...any) {
	t.Helper()
	data, err := corpus.Marshal(vals...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.Write(dir, data); err != nil {
		t.Fatal(err)
	}
}

// TestCorpusMerge merges two shards and a libFuzzer corpus into the cache:
// duplicates are counted once and the pruning run keeps a smallest set with
// the same coverage.
func TestCorpusMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a fuzzing binary (-short)")
	}
	mod := writeModule(t, mergeModule)
	shardA, shardB, lf, cache := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	writeEntry(t, shardA, "apple", 1)
	writeEntry(t, shardA, "berry", 2)
	writeEntry(t, shardB, "apple", 1) // duplicate of shard A's
	writeEntry(t, shardB, "avocado", 3)
	raw, _ := corpus.EncodeLibFuzzer([]any{"bean", 4})
	if err := os.WriteFile(filepath.Join(lf, "crash-x"), raw, 0o666); err != nil {
		t.Fatal(err)
	}
	bin := e2eBin(t) // the pruning run builds with "fuzzbox toolexec": a real fuzzbox binary
	code, stdout, stderr := runBin(t, bin, mod, "corpus", "merge", "-fuzz=FuzzM", "-cachedir", cache, shardA, shardB)
	if code != exitOK || !strings.Contains(stdout, "merge: 3 new entries") || !strings.Contains(stdout, "(1 already there)") {
		t.Fatalf("merge: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	after := driver.MergeResult{Dest: filepath.Join(cache, "FuzzM")}.Entries()
	if after < 1 || after > 2 {
		t.Errorf("after pruning %d entries, want 1 or 2 (one per branch at most):\n%s", after, stdout)
	}
	code, stdout, stderr = runBin(t, bin, t.TempDir(), "corpus", "merge", "-fuzz=^FuzzM$", "-from-libfuzzer", "-pkg", mod, "-cachedir", cache, lf)
	if code != exitOK || !strings.Contains(stdout, "merge: 1 new entries") {
		t.Fatalf("merge -from-libfuzzer: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if code, _, stderr := runCorpusWith(t, "", "merge", "-fuzz=Fuzz.*", shardA); code != exitUsage || !strings.Contains(stderr, "one fuzz test") {
		t.Errorf("merge -fuzz=Fuzz.*: exit %d, %q", code, stderr)
	}
}

// runBin runs bin with args in dir and returns its exit code and output.
func runBin(t *testing.T, bin, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running %s: %v", bin, err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}
