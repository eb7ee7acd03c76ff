package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/event"
)

// TestFailLine: a fuzz function that logs its input before it fails has the
// t.Error line, not the t.Log line, as its failure's line, place and
// signature; a message without a log line first is as before.
func TestFailLine(t *testing.T) {
	dir := t.TempDir()
	src := `package m

func FuzzX(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		t.Logf("input %q", s)
		if len(s) > 3 {
			t.Errorf("too long: %d", len(s))
		}
		if s == "x" {
			t.Fatal("x")
		}
		t.Log("fine"); t.Error("both on one line")
		logInput(t, s)
		if s == "y" {
			check(t, s)
		}
	})
}

func logInput(t *testing.T, s string) {
	t.Helper()
	t.Logf("input %q", s)
}

func check(t *testing.T, s string) {
	t.Helper()
	t.Log("checking")
	t.Errorf("bad %q", s)
}
`
	for _, eol := range []string{"\n", "\r\n"} {
		t.Run(strings.ReplaceAll(strings.ReplaceAll(eol, "\r", "CR"), "\n", "LF"), func(t *testing.T) {
			dir := filepath.Join(dir, fmt.Sprint(len(eol)))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(strings.ReplaceAll(src, "\n", eol)), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			saved := sources
			sources = newSourceLines()
			t.Cleanup(func() { sources = saved })
			checkFailLine(t)
		})
	}
}

// checkFailLine is TestFailLine's checks, in the directory of its source.
// A file with CRLF line ends reads the same: its function bodies ended at
// a line "}", which "}\r" is not, and a log helper read to the file's end
// failed (a helper that fails is none).
func checkFailLine(t *testing.T) {

	long := "--- FAIL: FuzzX (0.00s)\n    x_test.go:5: input \"abcd\"\n    x_test.go:7: too long: 4\n"
	x := "--- FAIL: FuzzX (0.00s)\n    x_test.go:5: input \"x\"\n    x_test.go:10: x\n"
	same := "--- FAIL: FuzzX (0.00s)\n    x_test.go:5: input \"b\"\n    x_test.go:12: fine\n    x_test.go:12: both on one line\n"
	if got := failLine(long); got != "x_test.go:7: too long: 4" {
		t.Errorf("failLine = %q, want the t.Errorf line", got)
	}
	if got := failureKey(KindFail, long); got != "x_test.go:7" {
		t.Errorf("failureKey = %q, want x_test.go:7", got)
	}
	if signature(KindFail, long) == signature(KindFail, x) {
		t.Errorf("two t.Error lines after one t.Log line have one signature: %q", signature(KindFail, long))
	}
	if got := failLine(same); got != "x_test.go:12: fine" {
		t.Errorf("failLine = %q: a line that logs and fails is no log line", got)
	}
	// A logged input that spans lines and makes up a reported line: the
	// continuation is indented more.
	fake := "--- FAIL: FuzzX (0.00s)\n    x_test.go:5: input \"Q\n        zz.go:7: fake\"\n    x_test.go:7: too long: 4\n"
	if got := failLine(fake); got != "x_test.go:7: too long: 4" {
		t.Errorf("failLine = %q, want the t.Errorf line, not a line of the logged input", got)
	}
	if got := headline(KindFail, long); got != "x_test.go:7: too long: 4" {
		t.Errorf("headline = %q", got)
	}
	e := event.Event{Type: event.Failure, Kind: KindFail, Message: long, Line: headline(KindFail, long), Reproducer: "r"}
	if got, want := event.Format(e), "fuzz: elapsed: 0s, found fail failure: x_test.go:7: too long: 4 (written to r)"; got != want {
		t.Errorf("status line %q, want %q", got, want)
	}
	// A log helper (t.Helper, then t.Log) is reported at its caller's
	// line; a helper that fails is not a log helper.
	helped := "--- FAIL: FuzzX (0.00s)\n    x_test.go:13: input \"y\"\n    x_test.go:15: checking\n    x_test.go:15: bad \"y\"\n"
	if got := failLine(helped); got != "x_test.go:15: checking" {
		t.Errorf("failLine = %q, want the line of the failing helper's call, not the log helper's", got)
	}
	// testify starts its report on the line after "x_test.go:N:": its
	// Error field says what failed, and tells two assertions apart.
	testify := func(at, errField string) string {
		m := "--- FAIL: FuzzX (0.00s)\n    x_test.go:5: input \"b\"\n    " + at + ": \n" +
			"        \tError Trace:\t/src/m/" + at + "\n        \t            \t\t\t\t/usr/local/go/src/testing/fuzz.go:341\n"
		for i, l := range strings.Split(errField, "\n") {
			label := "Error:      "
			if i > 0 {
				label = "            "
			}
			m += "        \t" + label + "\t" + l + "\n"
		}
		return m + "        \tTest:       \tFuzzX\n"
	}
	noErr := testify("x_test.go:7", "Received unexpected error:\ndtls internal: sequence number 17 overflows")
	noErr2 := testify("x_test.go:7", "Received unexpected error:\ndtls internal: sequence number 99 overflows")
	notEqual := testify("x_test.go:10", "Not equal: \nexpected: 3\nactual  : 4")
	if got, want := failLine(noErr), "x_test.go:7: Received unexpected error: dtls internal: sequence number 17 overflows"; got != want {
		t.Errorf("failLine of testify's report = %q, want %q", got, want)
	}
	if got := failureKey(KindFail, notEqual); got != "x_test.go:10" {
		t.Errorf("failureKey of testify's report = %q, want x_test.go:10", got)
	}
	if got, want := failLine(notEqual), "x_test.go:10: Not equal: expected: 3"; got != want {
		t.Errorf("failLine of testify's report = %q, want %q", got, want)
	}
	if signature(KindFail, noErr) == signature(KindFail, notEqual) {
		t.Errorf("two testify assertions have one signature: %q", signature(KindFail, noErr))
	}
	if signature(KindFail, noErr) != signature(KindFail, noErr2) {
		t.Errorf("one testify assertion, numbers apart, has two signatures: %q, %q", signature(KindFail, noErr), signature(KindFail, noErr2))
	}
	// quicktest: a label ("error:"), what failed under it, then "got:"
	// and the rest. Its line says what failed; two assertions of one text
	// at two places are two signatures (the source line at each tells them
	// apart: every quicktest failure had one bucket), one assertion with
	// other values one.
	qt := func(at, got string) string {
		return "--- FAIL: FuzzX (0.00s)\n    " + at + ": \n        error:\n          got non-nil error\n        got:\n          e\"" + got +
			"\"\n        stack:\n          /src/m/" + at + "\n            c.Assert(err, qt.IsNil)\n"
	}
	if got, want := failLine(qt("x_test.go:7", "bad QR")), "x_test.go:7: error: got non-nil error"; got != want {
		t.Errorf("failLine of quicktest's report = %q, want %q", got, want)
	}
	if signature(KindFail, qt("x_test.go:7", "bad QR")) == signature(KindFail, qt("x_test.go:10", "bad QR")) {
		t.Errorf("two quicktest assertions at two places have one signature: %q", signature(KindFail, qt("x_test.go:7", "bad QR")))
	}
	if signature(KindFail, qt("x_test.go:7", "bad QR")) != signature(KindFail, qt("x_test.go:7", "bad R")) {
		t.Errorf("one quicktest assertion, values apart, has two signatures")
	}
	// A report whose text starts on its next line, not testify's: that line.
	multi := "--- FAIL: FuzzX (0.00s)\n    x_test.go:7: \n        round trip differs:\n        got 3\n"
	if got := failLine(multi); got != "x_test.go:7: round trip differs:" {
		t.Errorf("failLine of a report on the next line = %q", got)
	}
	// Nothing to tell: the first line, as before.
	for _, msg := range []string{
		"--- FAIL: FuzzX (0.00s)\n    x_test.go:7: too long: 4\n    x_test.go:5: input\n",
		"--- FAIL: FuzzX (0.00s)\n    other_test.go:3: gone\n",
		"--- FAIL: FuzzX (0.00s)\n    x_test.go:5: only a log\n",
	} {
		if got, want := failLine(msg), firstLine(msg); got != want || headline(KindFail, msg) != "" {
			t.Errorf("failLine(%q) = %q, want the first line %q and no headline", msg, got, want)
		}
	}
	if headline(KindPanic, long) != "" {
		t.Errorf("a panic has a headline")
	}
}

// TestPanicLine: a panic after an assertion's report (pion/rtp's packetizer
// fuzz test: testify's assert, then an index out of range) has the panic
// as its line and its key's runtime error, not the assertion's header.
func TestPanicLine(t *testing.T) {
	msg := "packetizer_test.go:340: \n" +
		"    \tError Trace:\t/m/packetizer_test.go:340\n" +
		"    \tError:      \t\"0\" is not greater than or equal to \"1\"\n" +
		"panic: runtime error: index out of range [0] with length 0\n" +
		"    goroutine 44 [running]:\n" +
		"    example.com/m.FuzzX.func1(0xc00015c488)\n" +
		"    \t/m/packetizer_test.go:341 +0xacb\n"
	if got, want := headline(KindPanic, msg), "panic: runtime error: index out of range [0] with length 0"; got != want {
		t.Errorf("headline = %q, want %q", got, want)
	}
	if key := failureKey(KindPanic, msg); !strings.Contains(key, "runtime error: index out of range [N] with length N") {
		t.Errorf("key %q lacks the runtime error", key)
	}
	recovered := "x_test.go:3: input \"a\"\ntesting.go:1927: panic: boom\n"
	if got, want := lineOf(KindPanic, recovered), "testing.go:1927: panic: boom"; got != want {
		t.Errorf("lineOf(recovered) = %q, want %q", got, want)
	}
	if got, want := lineOf(KindPanic, "panic: first\n"), "panic: first"; got != want {
		t.Errorf("lineOf = %q, want %q", got, want)
	}
	if got := headline(KindPanic, "panic: first\nx\n"); got != "" {
		t.Errorf("headline of a message whose first line is the panic = %q, want \"\"", got)
	}
}

// TestHangLine: a hang's line in the status line and the list of unique
// failures does not end in the colon that leads to the stacks under it.
func TestHangLine(t *testing.T) {
	msg := "fuzzbox: hang: the input ran longer than the timeout of 10s; goroutine stacks:\ngoroutine 7 [running]:\n"
	if got, want := lineOf(KindHang, msg), "fuzzbox: hang: the input ran longer than the timeout of 10s"; got != want {
		t.Errorf("lineOf(hang) = %q, want %q", got, want)
	}
}
