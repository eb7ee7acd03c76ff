package driver

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestTestOfFrame(t *testing.T) {
	for _, tc := range []struct{ frame, want string }{
		{"github.com/pelletier/go-toml/v2.TestDecodeError.func1(0x12dce32908)", "TestDecodeError"},
		{"example.com/p_test.FuzzParse.func2.1({0x0, 0x1})", "FuzzParse"},
		{"example.com/p.ExampleParse()", "ExampleParse"},
		{"example.com/p.Test(0xc000)", "Test"},
		{"example.com/p.Testify(0xc000)", ""}, // not a test name by the go command's rule
		{"example.com/p.(*T).TestLike(0xc000)", ""},
		{"testing.tRunner(0x12dce32908, 0x12dce78e70)", ""},
		{"bytes.(*Buffer).WriteString(0x12dce09ee8, {0x75500000004, 0xa2eec0})", ""},
		{"\t/tmp/gotoml/errors_test.go:164 +0x69 fp=0x12dce09f70", ""},
		{"created by example.com/p.TestX in goroutine 7", ""},
		{"example.com/p.Test\u00e9t(0x1)", ""}, // lower-case letter after the prefix
		{"example.com/p.Test\u00c9t(0x1)", "Test\u00c9t"},
	} {
		if got := testOfFrame(tc.frame); got != tc.want {
			t.Errorf("testOfFrame(%q) = %q, want %q", tc.frame, got, tc.want)
		}
	}
}

// goTomlFault is what go-toml's TestDecodeError printed in fuzzbox's binary
// (issue 19), shortened.
const goTomlFault = `unexpected fault address 0x75500a2ee44
fatal error: fault
[signal SIGSEGV: segmentation violation code=0x1 addr=0x75500a2ee44 pc=0x4906c3]

goroutine 21 gp=0x12dce38780 m=0 mp=0xb03380 [running]:
runtime.throw({0x85402e?, 0x0?})
	/usr/local/go/src/runtime/panic.go:1229 +0x48 fp=0x12dce09dc8 sp=0x12dce09d98 pc=0x488aa8
runtime.sigpanic()
	/usr/local/go/src/runtime/signal_unix.go:945 +0x285 fp=0x12dce09e28 sp=0x12dce09dc8 pc=0x48a7e5
bytes.(*Buffer).WriteString(0x12dce09ee8, {0x75500000004, 0xa2eec0})
	/usr/local/go/src/bytes/buffer.go:211 +0x1b9 fp=0x12dce09e78 sp=0x12dce09e30 pc=0x547999
github.com/pelletier/go-toml/v2.TestDecodeError.func1(0x12dce32908)
	/tmp/gotoml/errors_test.go:164 +0x69 fp=0x12dce09f70 sp=0x12dce09e78 pc=0x613f29
testing.tRunner(0x12dce32908, 0x12dce78e70)
	/usr/local/go/src/testing/testing.go:2036 +0xea fp=0x12dce09fc0 sp=0x12dce09f70 pc=0x56ecca
created by testing.(*T).Run in goroutine 19
	/usr/local/go/src/testing/testing.go:2101 +0x4c5

goroutine 1 gp=0x12dcd341e0 m=nil [chan receive]:
testing.(*T).Run(0x12dce32248, {0x8588b0?, 0x0?}, 0x8979e8)
	/usr/local/go/src/testing/testing.go:2109 +0x4e5
github.com/pelletier/go-toml/v2.TestOther(0x8e28deb4488)
	/tmp/gotoml/other_test.go:162 +0xed
`

func TestPrefuzzWatchCrash(t *testing.T) {
	w := &prefuzzWatch{}
	for l := range strings.Lines(goTomlFault) {
		w.line(strings.TrimSuffix(l, "\n"))
	}
	if got := w.names(); !slices.Equal(got, []string{"TestDecodeError"}) {
		t.Errorf("names = %q, want the test of the running goroutine only", got)
	}
	ex := w.excerpt()
	if !strings.HasPrefix(ex, "unexpected fault address 0x75500a2ee44\nfatal error: fault\n") || !strings.Contains(ex, "TestDecodeError.func1") {
		t.Errorf("excerpt does not quote the crash report:\n%s", ex)
	}
}

func TestPrefuzzWatchFailLines(t *testing.T) {
	w := &prefuzzWatch{}
	for _, l := range strings.Split(`=== RUN   TestA
--- FAIL: TestA (0.00s)
    --- FAIL: TestA/sub (0.00s)
        a_test.go:3: no
--- FAIL: FuzzB (0.01s)
    --- FAIL: FuzzB/seed#1 (0.00s)
--- PASS: TestC (0.00s)
--- FAIL: TestA (0.00s)
FAIL`, "\n") {
		w.line(l)
	}
	// A test panicking prints its FAIL line and then the panic (on
	// standard error, which joins the output).
	for _, l := range strings.Split("panic: boom [recovered]\n\tpanic: boom\n\ngoroutine 7 [running]:\nexample.com/p.TestD(0x1)\n\t/p/d_test.go:9 +0x1", "\n") {
		w.line(l)
	}
	if got, want := w.names(), []string{"TestA", "FuzzB", "TestD"}; !slices.Equal(got, want) {
		t.Errorf("names = %q, want %q", got, want)
	}
	if ex := w.excerpt(); !strings.HasPrefix(ex, "panic: boom [recovered]") {
		t.Errorf("excerpt = %q", ex)
	}
	if w.ranAll() {
		t.Error("ranAll after a crash: the tests after it did not run")
	}
	w = &prefuzzWatch{}
	for _, l := range []string{"=== RUN   TestE", "--- FAIL: TestE (0.00s)", "    e_test.go:12: 8x the input cost 30.5x the time", "        (continued)", "=== RUN   TestF", "--- PASS: TestF (0.00s)"} {
		w.line(l)
	}
	// Why it failed, as go test prints it (fasthttp's timing test, which
	// failed under load: the warning quoted only its name).
	if ex, want := w.excerpt(), "--- FAIL: TestE (0.00s)\n    e_test.go:12: 8x the input cost 30.5x the time\n        (continued)"; ex != want {
		t.Errorf("excerpt without a crash = %q, want %q", ex, want)
	}
	if w.ranAll() {
		t.Error("ranAll before go test's final FAIL line")
	}
	if w.line("FAIL"); !w.ranAll() {
		t.Error("not ranAll after the final FAIL line, nothing crashed")
	}
}

func TestSkipFuzzboxOnly(t *testing.T) {
	s := newStream(nil)
	r := &TargetResult{Target: Target{Name: "FuzzX"}}
	if !r.skipFuzzboxOnly([]string{"TestA", "TestB"}, false, s) {
		t.Fatal("named tests: want a retry without them")
	}
	if got := fmt.Sprint(r.skipArgs("")); got != "[-test.skip=^(TestA|TestB)$]" {
		t.Errorf("skipArgs = %s", got)
	}
	if !r.skipFuzzboxOnly(nil, false, s) || fmt.Sprint(r.skipArgs("")) != "[-test.run=^$ -test.skip=^(TestA|TestB)$]" {
		t.Errorf("unnamed failure: want a retry running no tests, got %v", r.skipArgs(""))
	}
	if r.skipFuzzboxOnly(nil, false, s) {
		t.Error("an unnamed failure with no tests running: want no further retry")
	}
	if r.skipFuzzboxOnly([]string{"FuzzX"}, true, s) || r.Err == "" {
		t.Errorf("the target's own seeds failing only in fuzzbox: want no retry and an error, got Err %q", r.Err)
	}
	// Every test ran and only TestA failed: the next start runs none.
	r = &TargetResult{Target: Target{Name: "FuzzX"}}
	if !r.skipFuzzboxOnly([]string{"TestA"}, true, s) || fmt.Sprint(r.skipArgs("")) != "[-test.run=^$]" {
		t.Errorf("all tests ran: want a retry running no tests, got %v", r.skipArgs(""))
	}
}

// lateLog is a test binary's output when a goroutine TestCtxLate started
// logs through its T after the tests returned (Go 1.26).
const lateLog = `panic: Log in goroutine after TestCtxLate has completed: shutting down
	

goroutine 8 [running]:
testing.(*common).log(0x3c03553ca248, {0x3c0355482010?, 0x1?})
	/usr/local/go/src/testing/testing.go:1039 +0x16a
testing.(*common).Log(0x3c03553ca248, {0x3c03553357c0?, 0x0?, 0x0?})
	/usr/local/go/src/testing/testing.go:1189 +0x45
example.com/ctxlate.TestCtxLate.func1()
	/tmp/ctxlate/ctxlate_test.go:13 +0x7a
created by example.com/ctxlate.TestCtxLate in goroutine 7
	/tmp/ctxlate/ctxlate_test.go:11 +0xd1
`

// TestPrefuzzWatchLateCall: testing's panic at a T used after its test
// returned is the user's failure when the user's code made the call, not
// when testing's or fuzzbox's runtime did, and no other panic is one.
func TestPrefuzzWatchLateCall(t *testing.T) {
	tests := []struct {
		desc, out string
		want      bool
	}{
		{"the test's goroutine", lateLog, true},
		{"fuzzbox's runtime", strings.ReplaceAll(lateLog, "example.com/ctxlate.TestCtxLate.func1()", "github.com/fuzzbox/fuzzbox/engine/fuzzmain.report(0x1)"), false},
		{"another panic", strings.Replace(lateLog, "Log in goroutine after TestCtxLate has completed", "runtime error: index out of range [3] with length 3", 1), false},
		{"Fail", strings.Replace(lateLog, "panic: Log in goroutine after TestCtxLate has completed: shutting down", "panic: Fail in goroutine after TestCtxLate has completed", 1), true},
	}
	for _, tt := range tests {
		w := &prefuzzWatch{}
		for l := range strings.Lines(tt.out) {
			w.line(strings.TrimSuffix(l, "\n"))
		}
		if got := w.lateCall(); got != tt.want {
			t.Errorf("%s: lateCall() = %v, want %v (caller %q)", tt.desc, got, tt.want, w.caller)
		}
	}
	w := &prefuzzWatch{}
	for l := range strings.Lines(lateLog) {
		w.line(strings.TrimSuffix(l, "\n"))
	}
	if got, want := w.exitReason(), "a goroutine TestCtxLate started used a *testing.T after its test returned: Log in goroutine after TestCtxLate has completed: shutting down"; got != want {
		t.Errorf("exitReason() = %q, want %q", got, want)
	}
}

// TestPrefuzzWatchEngineCrash: a crash whose goroutine's innermost frame
// outside the standard library is fuzzbox's runtime's is fuzzbox's; one in
// the user's code, or testing's panic at a late call, is not.
func TestPrefuzzWatchEngineCrash(t *testing.T) {
	const engineFault = `panic: runtime error: index out of range [5] with length 5

goroutine 21 [running]:
sync.(*Mutex).Lock(0x1)
	/usr/local/go/src/sync/mutex.go:46 +0x1
github.com/fuzzbox/fuzzbox/engine.(*coordinator).schedule(0xc000010000)
	/root/.cache/fuzzbox/runtime/x/engine/queue.go:120 +0x2a
created by github.com/fuzzbox/fuzzbox/engine.Coordinate in goroutine 1
	/root/.cache/fuzzbox/runtime/x/engine/coordinator.go:200 +0x1f
`
	userFault := strings.ReplaceAll(engineFault, "github.com/fuzzbox/fuzzbox/engine.(*coordinator).schedule", "example.com/p.TestServer.func2")
	for _, tt := range []struct {
		desc, out string
		want      bool
	}{
		{"fuzzbox's coordinator", engineFault, true},
		{"a goroutine of the user's test", userFault, false},
		{"testing's panic at a late call", lateLog, false},
	} {
		w := &prefuzzWatch{}
		for l := range strings.Lines(tt.out) {
			w.line(strings.TrimSuffix(l, "\n"))
		}
		if got := w.engineCrash("example.com/p"); got != tt.want {
			t.Errorf("%s: engineCrash() = %v, want %v (caller %q)", tt.desc, got, tt.want, w.caller)
		}
		if tt.want && w.engineCrash("github.com/fuzzbox/fuzzbox/engine") {
			t.Errorf("%s: engineCrash() while fuzzing that package itself: want false", tt.desc)
		}
	}
}
