package event_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fuzzbox/fuzzbox/event"
)

// TestDocsListEveryType checks docs/engine.md's event table against Types,
// both ways and in order.
func TestDocsListEveryType(t *testing.T) {
	doc, err := os.ReadFile("../docs/engine.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "## The `-json` event stream")
	if !ok {
		t.Fatal("docs/engine.md has no event stream section")
	}
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(table, -1) {
		documented = append(documented, m[1])
	}
	if !slices.Equal(documented, event.Types) {
		t.Errorf("docs/engine.md lists event types %v, the event package %v", documented, event.Types)
	}
}

func TestEncodeDecode(t *testing.T) {
	code := 1
	in := []event.Event{
		{Type: event.Stats, Time: time.Unix(100, 0).UTC(), Target: "FuzzX", Execs: 42, ExecsPerSec: 1.5, Edges: 7},
		{Type: event.Flaky, Time: time.Unix(101, 0).UTC(), Kind: "panic", Message: "panic: x\nstack", Reruns: 3},
		{Type: event.Exit, Time: time.Unix(102, 0).UTC(), ExitCode: &code},
	}
	var buf bytes.Buffer
	for _, e := range in {
		if err := event.Encode(&buf, e); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(buf.String(), "\n"); n != len(in) {
		t.Fatalf("%d lines for %d events:\n%s", n, len(in), buf.String())
	}
	if strings.Contains(buf.String(), `"reproduced"`) {
		t.Errorf("zero fields are not omitted:\n%s", buf.String())
	}
	dec := event.NewDecoder(&buf)
	for i, want := range in {
		got, err := dec.Next()
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if got.Type != want.Type || !got.Time.Equal(want.Time) || got.Message != want.Message || got.Execs != want.Execs ||
			got.Reruns != want.Reruns || (want.ExitCode != nil && (got.ExitCode == nil || *got.ExitCode != *want.ExitCode)) {
			t.Errorf("event %d = %+v, want %+v", i, got, want)
		}
	}
	if _, err := dec.Next(); err != io.EOF {
		t.Errorf("after the last event: %v, want io.EOF", err)
	}
}

func TestDecoderReportsBadLinesAndGoesOn(t *testing.T) {
	dec := event.NewDecoder(strings.NewReader("{\"type\":\"start\"}\nnot json\n{}\n\n{\"type\":\"done\"}\n"))
	var types, errs []string
	for {
		e, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		types = append(types, e.Type)
	}
	if !slices.Equal(types, []string{"start", "done"}) {
		t.Errorf("decoded %v, want [start done]", types)
	}
	if len(errs) != 2 || !strings.Contains(errs[0], "line 2") || !strings.Contains(errs[1], "line 3: no type") {
		t.Errorf("errors = %q, want line 2 (not JSON) and line 3 (no type)", errs)
	}
}

// TestDecoderEndsOnReadError: a failed read ends the stream (its error
// once, then io.EOF): a reader that goes on after errors, as the driver's
// does, looped for ever on a closed pipe.
func TestDecoderEndsOnReadError(t *testing.T) {
	r, w := io.Pipe()
	go func() {
		w.Write([]byte("{\"type\":\"start\"}\n"))
		w.CloseWithError(io.ErrClosedPipe)
	}()
	dec := event.NewDecoder(r)
	if e, err := dec.Next(); err != nil || e.Type != "start" {
		t.Fatalf("first: %+v, %v", e, err)
	}
	if _, err := dec.Next(); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("after the failed read: %v, want its error", err)
	}
	if _, err := dec.Next(); err != io.EOF {
		t.Errorf("after the error: %v, want io.EOF", err)
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		e    event.Event
		want string // "" means no line
	}{
		{event.Event{Type: event.Baseline, Progress: "0/4", Elapsed: 1500}, "fuzz: elapsed: 2s, gathering baseline coverage: 0/4 completed"},
		{event.Event{Type: event.Stats, Elapsed: 61000, Execs: 10, ExecsPerSec: 3.4, New: 1, Corpus: 5, Edges: 9},
			"fuzz: elapsed: 1m1s, execs: 10 (3/sec), new interesting: 1 (total: 5), edges: 9"},
		{event.Event{Type: event.Stats, Elapsed: 3000, Execs: 10, ExecsPerSec: 3.4, New: 1, Corpus: 5, Edges: 9, Instances: 2},
			"fuzz: elapsed: 3s, execs: 10 (3/sec), new interesting: 1 (total: 5), edges: 9, synced instances: 2"},
		{event.Event{Type: event.Failure, Kind: "panic", Message: "--- FAIL: FuzzX\n    panic: boom\n", Reproducer: "testdata/fuzz/FuzzX/ab"},
			"fuzz: elapsed: 0s, found panic failure: panic: boom (written to testdata/fuzz/FuzzX/ab)"},
		{event.Event{Type: event.Failure, Duplicate: true, Kind: "panic"}, ""},
		// Minimized into an input written before: after its minimizing line,
		// the status says so.
		{event.Event{Type: event.Failure, Duplicate: true, Kind: "fail", Message: "x_test.go:7: overflow", Reproducer: "testdata/fuzz/FuzzX/0a1b"},
			"fuzz: elapsed: 0s, fail failure minimized to the input already written to testdata/fuzz/FuzzX/0a1b: x_test.go:7: overflow"},
		{event.Event{Type: event.Minimizing, Kind: "fail", Message: "x_test.go:3: odd\nmore", Elapsed: 1000}, "fuzz: elapsed: 1s, minimizing fail failure: x_test.go:3: odd"},
		{event.Event{Type: event.Minimizing, Elapsed: 4000}, "fuzz: elapsed: 4s, minimizing"},
		{event.Event{Type: event.Flaky, Kind: "fail", Message: "x_test.go:3: odd", Reruns: 3},
			"fuzz: elapsed: 0s, flaky fail failure: x_test.go:3: odd: failed again in 0 of 3 re-runs in a fresh worker; not written (-keepflaky writes it)"},
		{event.Event{Type: event.Flaky, Kind: "oom", Message: "fuzzbox: out of memory: over the limit; goroutine stacks:\ngoroutine 1", Reruns: 3},
			"fuzz: elapsed: 0s, flaky oom failure: fuzzbox: out of memory: over the limit; goroutine stacks: failed again in 0 of 3 re-runs in a fresh worker; not written (-keepflaky writes it)"},
		{event.Event{Type: event.InternalError, Message: "worker: panic in the worker: boom\nstack"},
			"fuzz: elapsed: 0s, internal error in fuzzbox (a fuzzbox bug, not a failure of your code; please report it): worker: panic in the worker: boom; nothing was written\n    stack"},
		{event.Event{Type: event.Done, Elapsed: 2000, Execs: 10, ExecsPerSec: 5, Corpus: 1, Edges: 3},
			"fuzz: elapsed: 2s, execs: 10 (5/sec), new interesting: 0 (total: 1), edges: 3"},
		{event.Event{Type: event.Done, NotFuzzed: event.NotFuzzedFailed, Message: "its package's tests failed"}, ""},
		// Stopped in the baseline: its progress, not the fuzzing statistics.
		{event.Event{Type: event.Done, Elapsed: 9000, Execs: 32672, ExecsPerSec: 3601, Corpus: 32672, Edges: 630, Progress: "32672/100010"},
			"fuzz: elapsed: 9s, gathering baseline coverage: 32672/100010 completed"},
		{event.Event{Type: event.Output, Output: "ok\n"}, ""},
		{event.Event{Type: event.Exit}, ""},
	} {
		if got := event.Format(tc.e); got != tc.want {
			t.Errorf("Format(%s) =\n  %q\nwant\n  %q", tc.e.Type, got, tc.want)
		}
	}
}

// TestPrinterLabels: status lines start with their fuzz test's label, if it
// has one; output is printed as is.
func TestPrinterLabels(t *testing.T) {
	events := []event.Event{
		{Type: event.Baseline, Package: "p", Target: "FuzzA", Progress: "0/1"},
		{Type: event.Output, Package: "p", Target: "FuzzA", Output: "PASS\n"},
		{Type: event.Baseline, Package: "q", Target: "FuzzA", Progress: "0/2"},
		{Type: event.Baseline, Package: "q", Target: "FuzzB", Progress: "0/3"},
	}
	for _, tc := range []struct {
		labels map[string]string
		want   string
	}{
		{nil, "fuzz: elapsed: 0s, gathering baseline coverage: 0/1 completed\nPASS\n" +
			"fuzz: elapsed: 0s, gathering baseline coverage: 0/2 completed\n" +
			"fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed\n"},
		{map[string]string{"p.FuzzA": "p.FuzzA", "q.FuzzA": "q.FuzzA", "q.FuzzB": "FuzzB"},
			"[p.FuzzA] fuzz: elapsed: 0s, gathering baseline coverage: 0/1 completed\nPASS\n" +
				"[q.FuzzA] fuzz: elapsed: 0s, gathering baseline coverage: 0/2 completed\n" +
				"[FuzzB] fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed\n"},
	} {
		var b strings.Builder
		p := &event.Printer{W: &b, Labels: tc.labels}
		for _, e := range events {
			p.Print(e)
		}
		if b.String() != tc.want {
			t.Errorf("labels %v: printed\n%s\nwant\n%s", tc.labels, b.String(), tc.want)
		}
	}
}

// TestPrinterElapsed: a fuzz test's status lines count from the start of
// its fuzzing (its first baseline event), as go test -fuzz's do, not from
// the run's (events count from there: builds, tests, other fuzz tests).
func TestPrinterElapsed(t *testing.T) {
	events := []event.Event{
		{Type: event.Baseline, Package: "p", Target: "FuzzA", Progress: "0/1", Elapsed: 7000},
		{Type: event.Stats, Package: "p", Target: "FuzzA", Elapsed: 10000},
		{Type: event.Baseline, Package: "q", Target: "FuzzB", Progress: "0/3", Elapsed: 12500},
		{Type: event.Start, Package: "q", Target: "FuzzB", Progress: "3/3", Workers: 2, Elapsed: 14000},
	}
	var b strings.Builder
	p := &event.Printer{W: &b}
	for _, e := range events {
		p.Print(e)
	}
	want := "fuzz: elapsed: 0s, gathering baseline coverage: 0/1 completed\n" +
		"fuzz: elapsed: 3s, execs: 0 (0/sec), new interesting: 0 (total: 0), edges: 0\n" +
		"fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed\n" +
		"fuzz: elapsed: 2s, gathering baseline coverage: 3/3 completed, now fuzzing with 2 workers\n"
	if b.String() != want {
		t.Errorf("printed\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	(&event.Printer{W: &b, JSON: true}).Print(events[1])
	if !strings.Contains(b.String(), `"elapsed_ms":10000`) {
		t.Errorf("JSON line %s: want the event's own elapsed_ms", b.String())
	}
}

func TestPrinterDirs(t *testing.T) {
	found := event.Event{Type: event.Failure, Package: "q", Target: "FuzzB", Kind: "panic", Message: "panic: boom", Reproducer: "testdata/fuzz/FuzzB/abc"}
	flaky := event.Event{Type: event.Flaky, Package: "q", Target: "FuzzB", Kind: "panic", Message: "panic: boom", Reproducer: "testdata/fuzz/FuzzB/abc", Reruns: 3, Reproduced: 1}
	dirs := map[string]string{"p.FuzzA": "a", "q.FuzzB": filepath.Join("b", "c")}
	var b strings.Builder
	p := &event.Printer{W: &b, Dirs: dirs}
	p.Print(found)
	p.Print(flaky)
	want := filepath.Join("b", "c", "testdata", "fuzz", "FuzzB", "abc")
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if !strings.Contains(line, "written to "+want+" ") && !strings.HasSuffix(line, "written to "+want+")") {
			t.Errorf("status line %q does not name the reproducer %s", line, want)
		}
	}
	// JSON lines keep the event's package-relative path.
	b.Reset()
	p = &event.Printer{W: &b, JSON: true, Dirs: dirs}
	p.Print(found)
	if !strings.Contains(b.String(), `"testdata/fuzz/FuzzB/abc"`) {
		t.Errorf("JSON line %s changed the reproducer's path", b.String())
	}
}

// TestEntryPattern: a corpus entry's -run pattern matches its name alone,
// with white space written so the testing package leaves it as it is.
func TestEntryPattern(t *testing.T) {
	for name, want := range map[string]string{
		"0123abcd": "0123abcd",
		"seed#0":   "seed#0",
		"bad seed": `bad\x{20}seed`,
		"a.b(c)":   `a\.b\(c\)`,
		"tab\té":   `tab\x{9}é`,
	} {
		got := event.EntryPattern(name)
		if got != want {
			t.Errorf("EntryPattern(%q) = %q, want %q", name, got, want)
		}
		if re := regexp.MustCompile("^" + got + "$"); !re.MatchString(name) || re.MatchString(name+"x") {
			t.Errorf("^%s$ does not match %q alone", got, name)
		}
	}
}

// TestSystemLimit: a thread, process or file the system refused is told by
// the runtime's or the system's words, and nothing else is.
func TestSystemLimit(t *testing.T) {
	for out, want := range map[string]string{
		"runtime: failed to create new OS thread (have 2 already; errno=11)\nruntime: may need to increase max user processes (ulimit -u)\nfatal error: newosproc": "ulimit -u",
		"fatal error: newosproc\n\nruntime stack:":                                             "ulimit -u",
		"engine: starting worker: fork/exec /tmp/x/bug.test: resource temporarily unavailable": "ulimit -u",
		"runtime/cgo: pthread_create failed: Resource temporarily unavailable":                 "ulimit -u",
		"open /tmp/x: too many open files (the code's leak)":                                   "",
		"panic: runtime error: index out of range [4] with length 4":                           "",
		"fatal error: concurrent map writes":                                                   "",
		"open testdata/x: no such file or directory":                                           "",
	} {
		what, limit := event.SystemLimit(out)
		if want == "" && what != "" || want != "" && !strings.Contains(limit, want) {
			t.Errorf("SystemLimit(%q) = %q, %q; want a limit naming %q", out, what, limit, want)
		}
	}
}

// TestHeadlineBounded: a failure's status line quotes at most the start of
// a huge message line (a 200-KB panic message was in three status lines).
func TestHeadlineBounded(t *testing.T) {
	long := "panic: " + strings.Repeat("é", 100<<10)
	h := event.Event{Type: event.Failure, Kind: "panic", Message: long}.Headline()
	if len(h) > 1100 || !strings.HasPrefix(h, "panic: é") || !strings.Contains(h, "bytes)") || !utf8.ValidString(h) {
		t.Errorf("headline of %d bytes: %q…", len(h), h[:min(len(h), 80)])
	}
	if h := (event.Event{Message: "--- FAIL: FuzzX\n    short\n"}).Headline(); h != "short" {
		t.Errorf("headline %q, want the short line whole", h)
	}
}
