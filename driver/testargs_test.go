package driver

import (
	"context"
	"flag"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// go test's -short and -args reach every run of the test binary: a module
// whose TestMain insists on its own flag and a positional argument, whose
// test and fuzz function fail without -short, is listed, tested, fuzzed,
// confirmed and replayed under go test -cover as go test -short ... -args
// runs it, and stock go test with the same arguments fails on the
// reproducer with its panic.

const argsTest = `package args

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

var golden = flag.String("golden", "", "required")

func TestMain(m *testing.M) {
	flag.Parse()
	if *golden != "dir" || flag.NArg() != 1 || flag.Arg(0) != "extra" {
		fmt.Fprintf(os.Stderr, "fuzzbox-e2e: want -golden=dir extra, have -golden=%q %q\n", *golden, flag.Args())
		os.Exit(3)
	}
	os.Exit(m.Run())
}

func TestShort(t *testing.T) {
	if !testing.Short() {
		t.Fatal("fuzzbox-e2e: not -short")
	}
}

func FuzzParse(f *testing.F) {
	f.Add("F")
	f.Fuzz(func(t *testing.T, s string) {
		if !testing.Short() {
			t.Fatal("fuzzbox-e2e: not -short in the fuzz function")
		}
		if len(s) >= 3 && s[0] == 'F' && s[1] == 'U' && s[2] == 'Z' {
			panic("fuzzbox-e2e: args bug")
		}
	})
}
`

func TestFuzzTestArgs(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "go.mod"), "module example.com/args\n\ngo 1.24\n")
	writeTestFile(t, filepath.Join(dir, "args.go"), "package args\n\nvar N = 1\n")
	writeTestFile(t, filepath.Join(dir, "args_test.go"), argsTest)
	cfg := Config{Fuzz: "^FuzzParse$", FuzzTime: "60s", RSSLimitMB: DefaultRSSLimitMB, Fuzzbox: testFuzzbox(t),
		Short: true, TestArgs: []string{"-golden=dir", "extra"}}
	r := fuzzIn(t, dir, cfg, ".")
	name := onlyReproducer(t, r, "FuzzParse")
	if !strings.Contains(r.out, "panic: fuzzbox-e2e: args bug") || strings.Contains(r.out, "want -golden") {
		t.Errorf("the failure is not the fuzz function's panic:\n%s", r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-short", "-run=^FuzzParse$/^"+name+"$", ".", "-args", "-golden=dir", "extra")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "panic: fuzzbox-e2e: args bug") {
		t.Errorf("stock go test -short ... -args: %v, want the reproducer's panic:\n%s", err, out)
	}

	cfg.Dir, cfg.CacheDir = dir, filepath.Join(dir, ".cache")
	targets, err := Resolve(context.Background(), cfg, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Cover(context.Background(), cfg, targets[0], CoverOptions{})
	if err != nil {
		t.Fatalf("cover with the same arguments: %v", err)
	}
	if !slices.Contains(append(rep.Entries.Failed, rep.Entries.Crashed...), name) || len(rep.Entries.Passed) == 0 {
		t.Errorf("cover: want the seed to pass and %s to fail or crash, have %+v", name, rep.Entries)
	}
}

// TestUserArgsLast: the user's arguments come after every flag of
// fuzzbox's (a positional one among them ends the flags the binary parses).
func TestUserArgsLast(t *testing.T) {
	cfg := Config{Short: true, TestArgs: []string{"-golden=dir", "extra"}}
	want := []string{"-test.short", "-golden=dir", "extra"}
	if got := cfg.userArgs(); !slices.Equal(got, want) {
		t.Errorf("userArgs = %q, want %q", got, want)
	}
	if got := (&Config{}).userArgs(); len(got) != 0 {
		t.Errorf("userArgs of a zero Config = %q", got)
	}
}

// TestSkipArgs: the user's -skip and the names that failed only in
// fuzzbox's binary go into one -test.skip, and the testing package reads
// both as meant: a real test binary run with it skips the user's subtest
// (a pattern with "/" and "|") and the fuzzbox-only name, and nothing else.
func TestSkipArgs(t *testing.T) {
	r := &TargetResult{}
	if got := r.skipArgs(""); len(got) != 0 {
		t.Errorf("no skips: %q", got)
	}
	if got := r.skipArgs("TestSlow"); !slices.Equal(got, []string{"-test.skip=TestSlow"}) {
		t.Errorf("the user's: %q", got)
	}
	r.skip = []string{"TestOnlyFuzzbox"}
	if got := r.skipArgs(""); !slices.Equal(got, []string{"-test.skip=^(TestOnlyFuzzbox)$"}) {
		t.Errorf("fuzzbox's: %q", got)
	}
	got := r.skipArgs("TestB/two|TestC")
	if !slices.Equal(got, []string{"-test.skip=TestB/two|TestC|^(TestOnlyFuzzbox)$"}) {
		t.Fatalf("both: %q", got)
	}
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "go.mod"), "module example.com/skip\n\ngo 1.24\n")
	writeTestFile(t, filepath.Join(dir, "x_test.go"), `package skip

import "testing"

func TestA(t *testing.T) {}
func TestB(t *testing.T) {
	t.Run("one", func(t *testing.T) {})
	t.Run("two", func(t *testing.T) {})
}
func TestC(t *testing.T)           {}
func TestOnlyFuzzbox(t *testing.T) {}
`)
	cmd := exec.Command("go", "test", "-count=1", "-v", ".", "-args", got[0])
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	var ran []string
	for _, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(line, "=== RUN   "); ok {
			ran = append(ran, name)
		}
	}
	if want := []string{"TestA", "TestB", "TestB/one"}; !slices.Equal(ran, want) {
		t.Errorf("ran %q, want %q\n%s", ran, want, out)
	}
}

// TestSetFromGOFLAGS: go test's flags in GOFLAGS apply where the command
// line did not set them, as go test applies them; -timeout (another meaning
// here), -json and the build's flags do not.
func TestSetFromGOFLAGS(t *testing.T) {
	var f Flags
	fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
	f.Register(fs)
	if err := fs.Parse([]string{"-run=Explicit"}); err != nil {
		t.Fatal(err)
	}
	testArgs, err := SetFromGOFLAGS(fs, "-mod=mod -short --v -test.fuzztime=10s -timeout=30m -json -count=1 -run=FromGOFLAGS -tags=x -parallel=3 -failfast -test.fullpath=true")
	if err != nil {
		t.Fatal(err)
	}
	// go test passes GOFLAGS' -failfast and -fullpath to the test binary.
	if want := []string{"-test.failfast", "-test.fullpath=true"}; !slices.Equal(testArgs, want) {
		t.Errorf("test binary's flags from GOFLAGS = %q, want %q", testArgs, want)
	}
	c := f.Config
	if !c.Short || !c.Verbose || c.FuzzTime != "10s" || c.Parallel != 3 || c.Run != "Explicit" || c.Timeout != ipc.DefaultTimeout || f.JSON || c.Tags != "" {
		t.Errorf("after GOFLAGS: %+v, json %v", c, f.JSON)
	}
	// go test's -count, -cpu and -shuffle in GOFLAGS were left out
	// silently; fuzzbox's command line refuses them.
	for goflags, want := range map[string]string{"-fuzztime": "needs an argument", "-short=maybe": "-short", "-parallel=x": "-parallel",
		"-count=2": "-count=2", "-test.count=3": "-test.count=3", "-cpu=1,2": "-cpu", "-shuffle=on": "-shuffle",
		"-coverprofile=c.out": "-coverprofile"} { // -cover for go test: the build failed in fuzzbox toolexec
		fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		(&Flags{}).Register(fs)
		if _, err := SetFromGOFLAGS(fs, goflags); err == nil || !strings.Contains(err.Error(), "GOFLAGS") || !strings.Contains(err.Error(), want) {
			t.Errorf("GOFLAGS=%s: %v, want an error naming GOFLAGS and %s", goflags, err, want)
		}
	}
}
