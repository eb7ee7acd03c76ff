package driver

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The test binary's environment is the one go test gives it: with another
// "go" first in PATH (a wrapper, another install), go test still puts the
// bin directory of the toolchain that builds the package first, and so does
// fuzzbox, for the tests before fuzzing and for the fuzz function in the
// workers.

const goFirstTest = `package gofirst

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func check(t *testing.T) {
	p, err := exec.LookPath("go")
	if err != nil || filepath.Dir(p) != os.Getenv("FUZZBOX_E2E_GOBIN") {
		t.Fatalf("fuzzbox-e2e: go is %q (%v), want it in %s", p, err, os.Getenv("FUZZBOX_E2E_GOBIN"))
	}
}

func TestGoFirst(t *testing.T) { check(t) }

func FuzzGo(f *testing.F) {
	f.Add("F")
	f.Fuzz(func(t *testing.T, s string) {
		check(t)
		if len(s) >= 3 && s[0] == 'F' && s[1] == 'U' && s[2] == 'Z' {
			panic("fuzzbox-e2e: gofirst bug")
		}
	})
}
`

func TestFuzzGoFirstInPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the wrapper is a shell script")
	}
	fuzzbox := testFuzzbox(t)
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	gobin := filepath.Join(strings.TrimSpace(string(out)), "bin")
	wrapper := t.TempDir()
	writeTestFile(t, filepath.Join(wrapper, "go"), "#!/bin/sh\nexec "+filepath.Join(gobin, "go")+" \"$@\"\n")
	if err := os.Chmod(filepath.Join(wrapper, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", wrapper+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FUZZBOX_E2E_GOBIN", gobin)
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "go.mod"), "module example.com/gofirst\n\ngo 1.24\n")
	writeTestFile(t, filepath.Join(dir, "x_test.go"), goFirstTest)

	cmd := exec.Command("go", "test", "-count=1", "-run=^TestGoFirst$", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("stock go test with the wrapper first in PATH: %v\n%s", err, out)
	}
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzGo$", FuzzTime: "60s", RSSLimitMB: DefaultRSSLimitMB, Fuzzbox: fuzzbox}, ".")
	onlyReproducer(t, r, "FuzzGo")
	if !strings.Contains(r.out, "panic: fuzzbox-e2e: gofirst bug") || strings.Contains(r.out, "fuzzbox-e2e: go is") {
		t.Errorf("want the planted panic, and go first in PATH throughout:\n%s", r)
	}
}

func TestWithPathFirst(t *testing.T) {
	sep := string(os.PathListSeparator)
	env := withPathFirst([]string{"A=1", "PATH=/usr/bin" + sep + "/bin"}, "/goroot/bin")
	if got := env[len(env)-1]; got != "PATH=/goroot/bin"+sep+"/usr/bin"+sep+"/bin" {
		t.Errorf("last entry %q", got)
	}
	if got := withPathFirst([]string{"A=1"}, "/goroot/bin"); got[len(got)-1] != "PATH=/goroot/bin" {
		t.Errorf("without PATH: %q", got)
	}
}
