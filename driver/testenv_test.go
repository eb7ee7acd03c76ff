package driver

import (
	"path"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"

	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
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

// TestLeftChildDoesNotHoldTheRun: a test that starts a process and leaves
// it running (here for two minutes) does not hold up fuzzbox: the process
// inherited the fuzzing binary's event pipe, and the driver waited for it
// to end, deaf to Ctrl-C; go test -fuzz does not wait. One that holds the
// binary's output (its standard output the test's) is waited for 5 s, as
// go test waits for a test's.
func TestLeftChildDoesNotHoldTheRun(t *testing.T) {
	for _, hold := range []string{"", "output"} {
		t.Run("hold="+hold, func(t *testing.T) {
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			t.Setenv("LEFT_CHILD_PID", pidFile)
			t.Setenv("LEFT_CHILD_HOLD", hold)
			writeTestFiles(t, dir, map[string]string{
				"go.mod": "module example.com/leftchild\n\ngo 1.26\n",
				"x_test.go": `package leftchild

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

func TestLeaveChild(t *testing.T) {
	// A process the test starts inherits no descriptor of fuzzbox's.
	out, err := exec.Command("sh", "-c", "[ -e /proc/$$/fd/3 ] && echo inherited || echo none").Output()
	if err != nil || string(out) != "none\n" {
		t.Fatalf("a child's descriptor 3: %q (%v)", out, err)
	}
	cmd := exec.Command("sleep", "120")
	if os.Getenv("LEFT_CHILD_HOLD") == "output" {
		cmd.Stdout = os.Stdout
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(os.Getenv("LEFT_CHILD_PID"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(strconv.Itoa(cmd.Process.Pid) + "\n")
}

func FuzzNothing(f *testing.F) {
	f.Add([]byte("a"))
	f.Fuzz(func(t *testing.T, b []byte) {})
}
`})
			r := fuzzIn(t, dir, Config{Fuzz: "^FuzzNothing$", FuzzTime: "1x", Fuzzbox: testFuzzbox(t)}, ".")
			if strings.Contains(r.text, "FAIL: TestLeaveChild") || len(r.warnings) > 0 {
				t.Errorf("the test failed in fuzzbox's binary\n%s", r)
			}
			data, err := os.ReadFile(pidFile)
			pids := strings.Fields(string(data))
			if err != nil || len(pids) == 0 {
				t.Fatalf("the test did not start its process (%v)\n%s", err, r)
			}
			for _, p := range pids { // each run of the test's
				pid, _ := strconv.Atoi(p)
				stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
				_, state, _ := strings.Cut(string(stat), ") ")
				alive := err == nil && !strings.HasPrefix(state, "Z") // an orphan that ended may wait to be reaped
				syscall.Kill(pid, syscall.SIGKILL)
				if !alive {
					t.Errorf("fuzzbox returned only when the test's process %d had ended\n%s", pid, r)
				}
			}
			if r.res.ExitCode != ExitOK {
				t.Errorf("exit %d, want 0\n%s", r.res.ExitCode, r)
			}
		})
	}
}

// TestInitParsesFlags: a package whose init parses the command line (after
// testing.Init, as some do) is fuzzed, its bug found and written, as under
// go test -fuzz: fuzzbox's flags on the command line made its init fail
// with "flag provided but not defined: -fuzzbox.timeout". A process the
// test starts does not inherit them (ipc.FlagsEnv).
func TestInitParsesFlags(t *testing.T) {
	dir := zModule(t, "example.com/initflags", `
import (
	"flag"
	"os"
	"testing"
)

func init() {
	testing.Init()
	flag.Parse()
}

func TestEnv(t *testing.T) {
	if v, ok := os.LookupEnv("`+ipc.FlagsEnv+`"); ok {
		t.Fatalf("the test sees fuzzbox's flags: %q", v)
	}
}
`, `panic("boom")`)
	wantFound(t, fuzzIn(t, dir, Config{Fuzz: "^FuzzZ$", FuzzTime: "60s", Fuzzbox: testFuzzbox(t)}, "."), "boom")
	if files, _ := filepath.Glob(filepath.Join(dir, "testdata", "fuzz", "FuzzZ", "*")); len(files) != 1 {
		t.Errorf("reproducers written: %v, want one", files)
	}
}

// TestTestUsesDescriptor3: a test that closes descriptor 3 and listens
// there (as a systemd socket-activation test puts its listener) leaves the
// fuzz test fuzzed and its bug found, as under go test -fuzz: the event
// pipe, inherited as descriptor 3, was cut, and the fuzz test reported as
// having skipped itself, exit 0.
func TestTestUsesDescriptor3(t *testing.T) {
	dir := zModule(t, "example.com/fd3", `
import (
	"net"
	"syscall"
	"testing"
)

var held net.Listener

func TestListenOn3(t *testing.T) {
	syscall.Close(3)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	held = l
}
`, `panic("boom")`)
	wantFound(t, fuzzIn(t, dir, Config{Fuzz: "^FuzzZ$", FuzzTime: "60s", Fuzzbox: testFuzzbox(t)}, "."), "boom")
}

// TestInitReplacesCommandLine: a package that initializes after fuzzbox's
// test main (by import path) and replaces flag.CommandLine is fuzzed, as
// under go test -fuzz: fuzzbox's flags, registered on the old flag set,
// were unknown to the binary. The hang is reported at the -timeout given:
// the flag reached the engine.
func TestInitReplacesCommandLine(t *testing.T) {
	dir := zModule(t, "zz.example/flagcl", `
import (
	"flag"
	"os"
)

func init() {
	flag.CommandLine = flag.NewFlagSet(os.Args[0], flag.ExitOnError)
}
`, `select {}`)
	wantFound(t, fuzzIn(t, dir, Config{Fuzz: "^FuzzZ$", FuzzTime: "60s", Timeout: 7 * time.Second, Fuzzbox: testFuzzbox(t)}, "."), "timeout of 7s")
}

// zModule writes a module whose package holds code (after its package
// clause: imports, tests, an init) and a fuzz test FuzzZ that runs bug on
// an input of two bytes or more starting with 'z', and returns its
// directory.
func zModule(t *testing.T, module, code, bug string) string {
	t.Helper()
	dir := t.TempDir()
	pkg := "package " + path.Base(module) + "\n"
	writeTestFiles(t, dir, map[string]string{
		"go.mod":    "module " + module + "\n\ngo 1.26\n",
		"x_test.go": pkg + code,
		"z_test.go": pkg + `
import "testing"

func FuzzZ(f *testing.F) {
	f.Add([]byte("a"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1 && b[0] == 'z' {
			` + bug + `
		}
	})
}
`})
	return dir
}

// wantFound fails t unless run r exited 1 with one failure whose message
// has want.
func wantFound(t *testing.T, r *fixtureRun, want string) {
	t.Helper()
	if r.res.ExitCode != ExitFailure || len(r.failures) != 1 || !strings.Contains(r.failures[0], want) {
		t.Fatalf("exit %d, failures %q; want one failure with %q (exit 1)\n%s", r.res.ExitCode, r.failures, want, r)
	}
}
