package engine

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// recoveredReport returns the message testing gives a panic recovered in a
// fuzz function: the value and the stack, captured for real.
func recoveredReport(f func()) (msg string) {
	defer func() {
		r := recover()
		msg = fmt.Sprintf("panic: %v [recovered]\n%s", r, debug.Stack())
	}()
	f()
	return ""
}

//go:noinline
func enginePanics() {
	var s []int
	i := 5
	_ = s[i]
}

// The dead worker's report of the panic this issue started from (trimmed).
const engineDeath = `panic: runtime error: slice bounds out of range [:60] with capacity 57

goroutine 1 [running]:
github.com/fuzzbox/fuzzbox/engine.strSubs({0xc000010000, 0x1, 0x1}, {0xc0000a2000, 0x3c}, {0xc0000a4000, 0x3c}, 0x1, 0xc00009fd58)
	/root/.cache/fuzzbox/runtime/5404e9d5/engine/cmp.go:174 +0x5e5
github.com/fuzzbox/fuzzbox/engine.(*cmpTrace).substitutions(0x7a4e40, {0xc000010000, 0x1, 0x1})
	/root/.cache/fuzzbox/runtime/5404e9d5/engine/cmp.go:84 +0x1a5
github.com/fuzzbox/fuzzbox/engine.(*worker).fixUp(0xc0000b2000, {0xc000010000, 0x1, 0x1}, 0xc0000b4000, 0x0, 0xc00009ff10)
	/root/.cache/fuzzbox/runtime/5404e9d5/engine/worker.go:207 +0x6c
testing.(*F).Fuzz(0xc0000c6000, {0x5f6e20, 0x6347a8})
	/usr/local/go/src/testing/fuzz.go:300 +0x9c5

goroutine 6 [chan receive]:
example.com/html.Parse(...)
	/src/html/parse.go:10
`

// A user's panic in a goroutine of its own, which kills the worker.
const userDeath = `panic: boom

goroutine 7 [running]:
example.com/html.(*parser).walk.func1()
	/src/html/parse.go:42 +0x25
created by example.com/html.(*parser).walk in goroutine 6
	/src/html/parse.go:40 +0x65
`

func TestEngineFault(t *testing.T) {
	const module = "github.com/fuzzbox/fuzzbox"
	for _, tc := range []struct {
		name, msg, target string
		want              bool
	}{
		{"engine panic in a dead worker", engineDeath, "example.com/html", true},
		{"user panic in a dead worker", userDeath, "example.com/html", false},
		{"engine panic recovered by testing", recoveredReport(enginePanics), "example.com/html", true},
		{"fuzzing fuzzbox's own engine", recoveredReport(enginePanics), module + "/engine", false},
		{"std panic called by the user", recoveredReport(func() { strings.Repeat("x", -1) }), "example.com/html", false},
		{"a test failure without a stack", "--- FAIL: FuzzX\n    x_test.go:12: bad value", "example.com/html", false},
		{"a fatal error in user code", "fatal error: concurrent map writes\n\ngoroutine 9 [running]:\nexample.com/m.set(...)\n\t/m.go:3\n", "example.com/m", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := engineFault(tc.msg, tc.target); got != tc.want {
				t.Errorf("engineFault = %v, want %v (culprit %q) for:\n%s", got, tc.want, culpritPackage(tc.msg), tc.msg)
			}
		})
	}
}

func TestFuncPackage(t *testing.T) {
	for fn, want := range map[string]string{
		"github.com/fuzzbox/fuzzbox/engine.(*cmpTrace).substitutions": "github.com/fuzzbox/fuzzbox/engine",
		"github.com/fuzzbox/fuzzbox/engine.strSubs":                   "github.com/fuzzbox/fuzzbox/engine",
		"example.com/html.Parse.func1":                                "example.com/html",
		"main.main":                                                   "main",
		"gopkg.in/yaml%2ev3.(*parser).parse":                          "gopkg.in/yaml.v3", // the linker escapes dots of the last element
	} {
		if got := funcPackage(fn); got != want {
			t.Errorf("funcPackage(%q) = %q, want %q", fn, got, want)
		}
	}
}

// TestInTestCode: a worker killed for not starting waits in the code under
// test when its innermost frame outside the standard library is the
// package's, its external test package's or a dependency's; in fuzzbox's
// own code (or only in the standard library) it is fuzzbox's.
func TestInTestCode(t *testing.T) {
	g := func(frames ...string) string {
		var b strings.Builder
		b.WriteString("goroutine 1 [sleep]:\n")
		for _, f := range frames {
			b.WriteString(f + "(...)\n\t/src/x.go:1 +0x1\n")
		}
		return b.String()
	}
	s := &setup{opts: Options{Package: "gopkg.in/conf.v2"}}
	for _, tc := range []struct {
		g    string
		want bool
	}{
		{g("time.Sleep", "gopkg.in/conf%2ev2.FuzzConf", "testing.fRunner"), true},
		{g("sync.(*Mutex).Lock", "gopkg.in/conf%2ev2_test.TestMain", "main.main"), true},
		{g("syscall.Syscall", "github.com/gofrs/flock.(*Flock).Lock", "gopkg.in/conf%2ev2.init.0"), true},
		{g("os.OpenFile", "github.com/fuzzbox/fuzzbox/engine/fuzzmain.(*deps).RunFuzzWorker", "testing.(*F).Fuzz", "gopkg.in/conf%2ev2.FuzzConf"), false},
		{g("runtime.gopark", "testing.(*M).Run", "main.main"), false},
	} {
		if got := s.inTestCode(tc.g); got != tc.want {
			t.Errorf("inTestCode(%q) = %v, want %v", tc.g, got, tc.want)
		}
	}
}

func TestCleanMessage(t *testing.T) {
	in := "--- FAIL: FuzzX (0.00s)\n    testing.go:1927: panic: boom\n    x_test.go:9: kept"
	want := "--- FAIL: FuzzX (0.00s)\n    panic: boom\n    x_test.go:9: kept"
	if got := cleanMessage(in); got != want {
		t.Errorf("cleanMessage = %q, want %q", got, want)
	}
}

// TestDiedReading: the end of the pipe, in or between messages, and a read
// end closed by the goroutine waiting for the process are a dead worker;
// bytes that are not a response are a protocol error.
func TestDiedReading(t *testing.T) {
	recv := func(write string, closeRead bool) error {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		w.WriteString(write)
		if closeRead {
			r.Close()
		} else {
			w.Close()
			defer r.Close()
		}
		var resp ipc.RunResponse
		return ipc.NewConn(r, w).Recv(&resp)
	}
	for _, tc := range []struct {
		name      string
		write     string
		closeRead bool
		died      bool
	}{
		{"end", "", false, true},
		{"end in a message", `{"Err":"par`, false, true},
		{"read end closed", "", true, true},
		{"garbage", "}{ not a response\n", false, false},
	} {
		err := recv(tc.write, tc.closeRead)
		if err == nil || diedReading(err) != tc.died {
			t.Errorf("%s: Recv error %v: diedReading = %v, want %v", tc.name, err, !tc.died, tc.died)
		}
	}
}

// TestSelfWorkerArgs: a worker is this binary with the arguments the
// process started with, whatever a test did to os.Args since.
func TestSelfWorkerArgs(t *testing.T) {
	defer func(a []string) { os.Args = a }(os.Args)
	os.Args = []string{"prog", "-v"}
	name, args, _ := selfWorker()
	if name != startArgs[0] || len(args) != len(startArgs) || args[0] != "-test.fuzzworker" {
		t.Errorf("selfWorker() = %q %q, want %q and the arguments the process started with", name, args, startArgs[0])
	}
}
