package driver

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fuzzbox/fuzzbox/event"
	"github.com/fuzzbox/fuzzbox/typed"
)

// typedModule writes a module with a typed fuzz test (package typed) whose
// bug needs a magic number in a nested field and a compared string, and
// which requires this checkout of fuzzbox (replace).
func typedModule(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "typedmod")
	files := map[string]string{
		"go.mod": "module example.com/typedmod\n\ngo 1.26\n\nrequire github.com/fuzzbox/fuzzbox v0.0.0\n\nreplace github.com/fuzzbox/fuzzbox => " + root + "\n",
		"cfg.go": `package typedmod

type Inner struct {
	Magic uint32
	Tags  []string
}

type Config struct {
	Name  string
	Inner Inner
	Next  *Config
}

func Check(c Config, n int8) {
	if c.Name == "admin" && c.Inner.Magic == 0x5eed {
		panic("admin with the magic")
	}
}
`,
		"cfg_test.go": `package typedmod

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

func FuzzCheck(f *testing.F) {
	typed.Add(f, Config{Name: "guest", Inner: Inner{Tags: []string{"a"}}}, int8(3))
	typed.Fuzz(f, func(t *testing.T, c Config, n int8) { Check(c, n) })
}
`,
	}
	writeTestFiles(t, dir, files)
	return dir
}

// TestFuzzTyped: fuzzbox finds a typed fuzz test's bug, minimizes the
// value (not its bytes) or finds it smallest, reports the arguments as Go
// syntax, and the reproducer — one []byte — fails under stock go test with
// the same panic.
func TestFuzzTyped(t *testing.T) {
	fuzzbox := testFuzzbox(t)
	dir := typedModule(t)
	cfg := Config{Fuzz: "^FuzzCheck$", FuzzTime: "120s", Fuzzbox: fuzzbox, CacheDir: t.TempDir(), Stderr: os.Stderr}
	targets, err := Resolve(context.Background(), cfg, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var failure event.Event
	res := Fuzz(context.Background(), cfg, targets, func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		if e.Type == event.Failure && !e.Duplicate {
			failure = e
		}
	})
	if res.ExitCode != ExitFailure || len(res.Targets) != 1 || len(res.Targets[0].Failures) != 1 {
		t.Fatalf("result %+v: want one failure", res)
	}
	want := []string{`Config{Name: "admin", Inner: Inner{Magic: 0x5eed}}`, `int8(0)`}
	// Minimized is "no" when the input found was already the smallest (the
	// comparison guidance can reach it directly): the values are the check.
	if strings.Join(failure.Values, "|") != strings.Join(want, "|") || (failure.Minimized != "yes" && failure.Minimized != "no") {
		t.Errorf("failure values %q (minimized %q), want %q (minimized yes or no)", failure.Values, failure.Minimized, want)
	}
	if !strings.Contains(failure.Message, "admin with the magic") {
		t.Errorf("failure message %q", failure.Message)
	}
	name := filepath.Base(failure.Reproducer)
	data, err := os.ReadFile(filepath.Join(dir, failure.Reproducer))
	if err != nil || !strings.HasPrefix(string(data), "go test fuzz v1\n[]byte(") {
		t.Fatalf("reproducer %s: %q, %v: want a go test fuzz v1 file of one []byte", failure.Reproducer, data, err)
	}
	cmd := exec.Command("go", "test", "-run=^FuzzCheck$/^"+name+"$", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "panic: admin with the magic") || !strings.Contains(string(out), "FuzzCheck/"+name) {
		t.Errorf("stock go test on the reproducer: %v\n%s\nwant the same panic", err, out)
	}
}

// TestTypedValues: the arguments of a typed fuzz test's corpus file, as Go
// syntax, from the test binary that knows their types.
func TestTypedValues(t *testing.T) {
	dir := typedModule(t)
	entry := filepath.Join(dir, "testdata", "fuzz", "FuzzCheck", "one")
	// typed.Encode(Config{Name: "admin", Inner: Inner{Magic: 0x5eed}}, int8(-2)): docs/typed.md.
	if err := os.MkdirAll(filepath.Dir(entry), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(entry, []byte("go test fuzz v1\n[]byte(\"\\x01\\x05admin\\xed^\\x00\\x00\\x00\\x00\\xfe\")\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "testdata", "fuzz", "FuzzCheck", "two")
	if err := os.WriteFile(bad, []byte("go test fuzz v1\nstring(\"x\")\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	vals, err := TypedValues(context.Background(), Config{}, Target{Name: "FuzzCheck", Dir: dir}, []string{entry, bad})
	if err != nil {
		t.Fatal(err)
	}
	want := `Config{Name: "admin", Inner: Inner{Magic: 0x5eed}}|int8(-2)`
	if got := strings.Join(vals[entry], "|"); got != want || len(vals) != 1 {
		t.Errorf("TypedValues = %q, want %s for the first file only", vals, want)
	}
	if _, err := TypedValues(context.Background(), Config{}, Target{Name: "FuzzNope", Dir: dir}, []string{entry}); err == nil || !strings.Contains(err.Error(), "not a typed fuzz test") {
		t.Errorf("a fuzz test that does not exist: err = %v", err)
	}
	// TypedFiles, what fuzzbox corpus cat and decode read: the typed entry
	// gets its arguments; a file outside testdata/fuzz/FuzzX does not.
	other := filepath.Join(t.TempDir(), "other")
	if err := os.WriteFile(other, []byte("go test fuzz v1\n[]byte(\"x\")\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	typedArgs := func(target Target) (got []string, warnings []string) {
		warn := func(err error) { warnings = append(warnings, err.Error()) }
		for e, err := range TypedFiles(context.Background(), Config{}, target, []string{entry, other}, warn) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.Join(e.Typed, "|"))
		}
		return got, warnings
	}
	if got, warnings := typedArgs(Target{}); len(got) != 2 || got[0] != want || got[1] != "" || len(warnings) != 0 {
		t.Errorf("TypedFiles: typed arguments %q, warnings %q; want %q and none, no warning", got, warnings, want)
	}
	// Named, the fuzz test answers for the file outside its directory too
	// ("x" is a version byte and nothing: the zero Config and int8(0)).
	if got, _ := typedArgs(Target{Name: "FuzzCheck", Dir: dir}); len(got) != 2 || got[0] != want || got[1] != "Config{}|int8(0)" {
		t.Errorf("TypedFiles of FuzzCheck: typed arguments %q, want %q and the other file's", got, want)
	}
	// A package that does not build says so, rather than showing no
	// typed arguments without a word.
	if err := os.WriteFile(filepath.Join(dir, "broken.go"), []byte("package typedmod\n\nvar x int = \"s\"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(filepath.Join(dir, "broken.go"))
	if got, warnings := typedArgs(Target{}); len(got) != 2 || got[0] != "" || len(warnings) != 1 || !strings.Contains(warnings[0], "typed arguments of FuzzCheck not shown") || !strings.Contains(warnings[0], "build failed") {
		t.Errorf("TypedFiles in a package that does not build: typed arguments %q, warnings %q; want none and why", got, warnings)
	}
}

// TestTypedValuesProtocol: the driver's copy of package typed's values
// protocol (it does not link typed, which links testing) agrees with it.
func TestTypedValuesProtocol(t *testing.T) {
	if typedValuesEnv != typed.ValuesEnv {
		t.Errorf("typedValuesEnv = %q, typed.ValuesEnv = %q", typedValuesEnv, typed.ValuesEnv)
	}
	b, _ := json.Marshal(valuesRequest{Fuzz: "FuzzX", Files: []string{"a", "b"}})
	var req typed.ValuesRequest
	if err := json.Unmarshal(b, &req); err != nil || req.Fuzz != "FuzzX" || len(req.Files) != 2 {
		t.Errorf("the driver's request reads as %+v (%v)", req, err)
	}
	b, _ = json.Marshal([]typed.ValuesAnswer{{File: "a", Values: []string{"1"}}, {File: "b", Err: "bad"}})
	var answers []valuesAnswer
	if err := json.Unmarshal(b, &answers); err != nil || len(answers) != 2 || answers[0].Values[0] != "1" || answers[1].Err != "bad" {
		t.Errorf("typed's answer reads as %+v (%v)", answers, err)
	}
}

// TestTypedFilesNotTyped: the corpus files of a fuzz test that is not typed
// (one []byte, as most are) get no typed arguments, and nothing is built or
// run to find that out; named, the fuzz test is said not to be typed.
func TestTypedFilesNotTyped(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/bytes\n\ngo 1.26\n",
		"b_test.go": `package b

import (
	"os"
	"testing"
)

func FuzzBytes(f *testing.F) {
	os.WriteFile("ran", nil, 0o666) // the test ran
	f.Fuzz(func(t *testing.T, b []byte) {})
}
`,
		"testdata/fuzz/FuzzBytes/a": "go test fuzz v1\n[]byte(\"x\")\n",
	})
	entry := filepath.Join(dir, "testdata", "fuzz", "FuzzBytes", "a")
	for _, target := range []Target{{}, {Name: "FuzzBytes", Dir: dir}} {
		var warnings []string
		n := 0
		for e, err := range TypedFiles(context.Background(), Config{}, target, []string{entry}, func(err error) { warnings = append(warnings, err.Error()) }) {
			if err != nil || e.Typed != nil {
				t.Errorf("%+v: entry %s: typed arguments %q, error %v; want none", target, e.Path, e.Typed, err)
			}
			n++
		}
		named := target.Name != ""
		why := !named && len(warnings) == 0 ||
			named && len(warnings) == 1 && strings.Contains(warnings[0], "no test file of "+dir+" imports "+typedImport)
		if n != 1 || !why {
			t.Errorf("%+v: %d entries, warnings %q; want one entry and, named, why it has no typed arguments", target, n, warnings)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the fuzz test ran to find out that it is not typed")
	}
}
