package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// This file reads what the compat set's commands print: go test -v result
// lines, and fuzzbox fuzz -json events.

var baselineRE = regexp.MustCompile(`gathering baseline coverage: (\d+/\d+) completed`)

// nativeBaseline returns the baseline progress ("done/total") of a line of
// go test -fuzz output, if it is one.
func nativeBaseline(s string) (string, bool) {
	m := baselineRE.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return m[1], true
}

var resultLineRE = regexp.MustCompile(`--- (PASS|FAIL|SKIP): ([^\s/]+) \(`)

// testResults collects the top-level "--- PASS/FAIL/SKIP: Name (" lines of
// go test -v output (subtests', named Parent/Sub, do not count): the first
// result of each name. A line may start with what a test printed without a
// newline (gobgp's TestParseCommunityRegexp: "^6830:24370$--- PASS: …"),
// which go test's output glues to it and fuzzbox's puts on a line of its
// own.
type testResults map[string]string

func (t testResults) line(s string) {
	if m := resultLineRE.FindStringSubmatch(s); m != nil {
		if _, seen := t[m[2]]; !seen {
			t[m[2]] = m[1]
		}
	}
}

// diff lists the names whose results differ, "Name: go test X, fuzzbox Y".
func (t testResults) diff(fuzzbox testResults) []string {
	var out []string
	for _, n := range t.diffNames(fuzzbox) {
		out = append(out, fmt.Sprintf("%s: go test %s, fuzzbox %s", n, orNone(t[n]), orNone(fuzzbox[n])))
	}
	return out
}

// diffNames lists, sorted, the names whose results differ.
func (t testResults) diffNames(fuzzbox testResults) []string {
	names := map[string]bool{}
	for n := range t {
		names[n] = true
	}
	for n := range fuzzbox {
		names[n] = true
	}
	var out []string
	for n := range names {
		if orNone(t[n]) != orNone(fuzzbox[n]) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// compatEvent is the part of a fuzzbox fuzz -json event (event/event.go)
// the compat set reads.
type compatEvent struct {
	Type       string `json:"type"`
	Kind       string `json:"kind"`
	Message    string `json:"message"`
	Reproducer string `json:"reproducer"`
	Seed       string `json:"seed"`       // failure: the seed corpus entry that failed (nothing written)
	Reruns     int    `json:"reruns"`     // failure: fuzzbox's re-runs in fresh workers
	Reproduced int    `json:"reproduced"` // failure: how many of them failed the same way
	Duplicate  bool   `json:"duplicate"`
	Output     string `json:"output"`
	Progress   string `json:"progress"`  // baseline, start: "done/total"
	Error      string `json:"error"`     // done: the run stopped on an internal error; exit: why the exit code is 2
	ExitCode   *int   `json:"exit_code"` // exit
}

// compatEvents reads fuzzbox fuzz -json output (standard error merged in):
// the tests' result lines (output events, or plain lines), internal errors,
// failures, flaky inputs, how the run ended and, if rates is set, the
// fuzzing rate. It is not safe for concurrent use.
type compatEvents struct {
	results  testResults
	internal []string      // internal_error events and a done event's error, first lines
	failures []compatEvent // failure events, duplicates left out
	flaky    []string      // flaky events, "kind: first line"
	exitErr  string        // the exit event's error: a usage or build error
	exited   bool          // an exit event arrived
	started  bool          // a start event arrived: fuzzing began after the baseline
	seeds    string        // the baseline's input count, from its progress
	rates    *fuzzboxParser
}

func newCompatEvents(rates bool) *compatEvents {
	c := &compatEvents{results: testResults{}}
	if rates {
		c.rates = newFuzzboxParser(nil)
	}
	return c
}

func (c *compatEvents) line(s string) {
	var e compatEvent
	if err := json.Unmarshal([]byte(s), &e); err != nil || e.Type == "" {
		c.results.line(s) // the fuzzing binary's standard error
		return
	}
	if c.rates != nil {
		c.rates.line(0, s)
	}
	switch e.Type {
	case "output":
		c.results.line(strings.TrimRight(e.Output, "\n"))
	case "internal_error":
		c.internal = append(c.internal, firstLine(e.Message))
	case "failure":
		if !e.Duplicate {
			c.failures = append(c.failures, e)
		}
	case "baseline":
		_, c.seeds, _ = strings.Cut(e.Progress, "/")
	case "start":
		c.started = true
	case "flaky":
		c.flaky = append(c.flaky, e.Kind+": "+firstLine(e.Message))
	case "done":
		if e.Error != "" {
			c.internal = append(c.internal, "run stopped: "+firstLine(e.Error))
		}
	case "exit":
		c.exited, c.exitErr = true, e.Error
	}
}

// found reports whether the engine recorded a failure: on an input it
// generated (its baseline's zero value, a mutant), as a seed that fails
// stops the binary before the engine starts.
func (c *compatEvents) found() bool { return len(c.failures) > 0 }

// trouble says why fuzzbox did not run the package as asked, "" when it did:
// code is its exit status (0 nothing found, 1 a failure, 2 usage or build
// error, -1 killed).
func (c *compatEvents) trouble(code int) string {
	switch {
	case c.exitErr != "":
		return fmt.Sprintf("fuzzbox exit %d: %s", code, firstLine(c.exitErr))
	case code == 2:
		return "fuzzbox exit 2"
	case code < 0:
		return "fuzzbox did not exit normally"
	case !c.exited:
		return fmt.Sprintf("fuzzbox exit %d with no exit event", code)
	}
	return ""
}
