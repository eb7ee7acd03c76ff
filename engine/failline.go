package engine

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The line of a fail's message that says what failed. The testing package
// prints a failed input's t.Log lines and its t.Error and t.Fatal lines
// alike ("x_test.go:12: text"), in the order they came: a fuzz function
// that logs its input first (t.Logf("input %q", s)) made that log line the
// failure's first. Its signature and place (failureKey) were then the log
// line's, the same for every failure of the fuzz function: -keepgoing
// reported two bugs as one, and minimization could shrink a failure at one
// t.Error into one at another. The source line of each reported line tells
// a log call from the rest.

// logCallRE matches a source line that calls a Log or Logf method, and
// failCallRE one that calls a method that fails the test. callRE matches a
// statement that calls a function or method, and funcRE the line that
// declares one: a log helper (t.Helper(), then t.Log) is reported at its
// caller's line.
var (
	logCallRE  = regexp.MustCompile(`\.Logf?\(`)
	failCallRE = regexp.MustCompile(`\.(Error|Errorf|Fatal|Fatalf|Fail|FailNow)\(`)
	callRE     = regexp.MustCompile(`^\s*(?:\w+\.)?(\w+)\(`)
	funcRE     = regexp.MustCompile(`^func (?:\([^)]*\) )?(\w+)[\[(]`)
)

// failLine returns the line of a fail's message that says what failed:
// its first reported line (file.go:N: …) whose source line is not a log
// call, or, when every one is, the message's first line. A source line
// that cannot be read counts as no log call.
func failLine(msg string) string {
	indent := -1
	lines := strings.Split(msg, "\n")
	for i, raw := range lines {
		l := strings.TrimSpace(raw)
		m := reportedAtRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		// A reported line is as indented as the first; a line indented
		// more continues a multi-line message, which may quote the input
		// ("x_test.go:1: made up" in a logged input).
		n := len(raw) - len(strings.TrimLeft(raw, " \t"))
		switch {
		case indent < 0:
			indent = n
		case n != indent:
			continue
		}
		if sources.logCall(m[1]) {
			continue
		}
		if l == m[1]+":" { // the text starts on the next line
			if d := continued(lines[i+1:], n); d != "" {
				l += " " + d
			}
		}
		return l
	}
	return firstLine(msg)
}

// labelRE matches a line that is a label alone, its content on the lines
// indented under it: quicktest's report ("error:", then "got non-nil
// error" or "values are not equal"; "got:", "want:", "stack:").
var labelRE = regexp.MustCompile(`^\w[\w ]*:$`)

// maxContinued bounds what continued returns, in bytes.
const maxContinued = 200

// continued says what a reported line with no text of its own reports,
// from the lines after it indented more than indent: the content of
// testify's "Error:" field (two lines at most: "Received unexpected
// error: dtls internal: sequence number overflow"), or else the first such
// line. testify's assertions (require.NoError, assert.Equal) start their
// report on the line after "x_test.go:N:", so every one of them in a file
// had one shape and one signature: -keepgoing took two different
// assertions' failures for one (pion/dtls's round-trip fuzz tests), and
// minimization could shrink one into the other.
func continued(lines []string, indent int) string {
	var field string
	var first, second string
	var errLines []string
	firstIndent := 0
	for _, raw := range lines {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		n := len(raw) - len(strings.TrimLeft(raw, " \t"))
		if n <= indent {
			break
		}
		switch {
		case first == "":
			first, firstIndent = strings.TrimSpace(raw), n
		case second == "" && n > firstIndent:
			second = strings.TrimSpace(raw)
		}
		// testify: the testing package's indentation (spaces), a tab,
		// the field's label padded (blank on its continuation lines), a
		// tab, the content.
		rest, ok := strings.CutPrefix(strings.TrimLeft(raw, " "), "\t")
		label, content, cut := strings.Cut(rest, "\t")
		if !ok || !cut {
			continue
		}
		if label = strings.TrimSpace(label); label != "" {
			field = label
		}
		if field == "Error:" && len(errLines) < 2 {
			errLines = append(errLines, strings.TrimSpace(content))
		}
	}
	d := first
	switch {
	case len(errLines) > 0:
		d = strings.Join(errLines, " ")
	case labelRE.MatchString(first) && second != "":
		d = first + " " + second // quicktest: "error:", what failed under it
	}
	if len(d) > maxContinued {
		d = strings.ToValidUTF8(d[:maxContinued], "") + "…"
	}
	return d
}

// bareReportSource returns, for a fail whose reporting line has no text of
// its own ("x_test.go:N:", the report below it: testify's, quicktest's),
// the source line at that place with its spaces collapsed, or "". Such
// reports say what kind of check failed, not which: two require.NoError or
// c.Assert(…, qt.IsNil) calls of one fuzz function failing with one text
// had one signature (quicktest's every failure had: "error:"). The source
// text tells them apart, and stays when an edit above moves the line.
func bareReportSource(msg string) string {
	m := reportedAtRE.FindStringSubmatch(failLine(msg))
	if m == nil {
		return ""
	}
	for _, l := range strings.Split(msg, "\n") {
		if strings.TrimSpace(l) == m[1]+":" {
			return strings.Join(strings.Fields(sources.text(m[1])), " ")
		}
	}
	return ""
}

// lineOf is the line of a failure's message that says what failed: a
// fail's failLine, a panic's panicLine, another kind's first line.
func lineOf(kind, msg string) string {
	switch kind {
	case KindFail:
		return failLine(msg)
	case KindPanic:
		return panicLine(msg)
	case KindHang:
		// Not the colon that leads to the stacks under it.
		return strings.TrimSuffix(firstLine(msg), "; goroutine stacks:")
	}
	return firstLine(msg)
}

// panicLine is the line of a panic's message that reports the panic
// ("panic: runtime error: …", or "x.go:N: panic: …" as the testing
// package reports a recovered one), or its first line when none does. What
// the input logged or asserted before it panicked comes first: pion/rtp's
// packetizer fuzz test, a testify assert.GreaterOrEqual that failed and
// then an index out of range, was reported as "packetizer_test.go:340:",
// and its key (failureKey) had no runtime error.
func panicLine(msg string) string {
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "panic: ") {
			return l
		}
		if m := reportedAtRE.FindString(l); m != "" && strings.HasPrefix(l[len(m):], "panic: ") {
			return l
		}
	}
	return firstLine(msg)
}

// headline is the line of a failure's message that says what failed, for
// its event's Line when it is not the first (failLine); "" otherwise.
func headline(kind, msg string) string {
	if l := lineOf(kind, msg); l != firstLine(msg) {
		return l
	}
	return ""
}

// sources reads the test's source files, as the testing package names them
// (relative to the package's directory, where the test binary runs), once
// each.
var sources = newSourceLines()

type sourceLines struct {
	mu      sync.Mutex
	files   map[string][]string        // file name as reported → its lines; nil when unreadable
	helpers map[string]map[string]bool // directory → its functions' names → log helper (logHelper)
}

func newSourceLines() *sourceLines {
	return &sourceLines{files: map[string][]string{}, helpers: map[string]map[string]bool{}}
}

// logCall reports whether the source line at "file.go:N" calls a Log
// method and no method that fails the test.
func (s *sourceLines) logCall(at string) bool {
	i := strings.LastIndexByte(at, ':')
	n, err := strconv.Atoi(at[i+1:])
	if i < 0 || err != nil {
		return false
	}
	lines := s.lines(at[:i])
	if n < 1 || n > len(lines) {
		return false
	}
	line := lines[n-1]
	if failCallRE.MatchString(line) {
		return false
	}
	if logCallRE.MatchString(line) {
		return true
	}
	m := callRE.FindStringSubmatch(line)
	return m != nil && s.logHelper(filepath.Dir(at[:i]), m[1])
}

// logHelper reports whether the package in dir declares a function or
// method named name that marks itself a helper and logs but does not fail
// (func logInput(t *testing.T, b []byte) { t.Helper(); t.Logf(…) }): the
// testing package reports its log lines at its caller's line.
func (s *sourceLines) logHelper(dir, name string) bool {
	s.mu.Lock()
	helpers, ok := s.helpers[dir]
	s.mu.Unlock()
	if !ok {
		bodies := map[string]string{} // every declaration of a name: a method of one type may fail
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				funcBodies(splitLines(data), bodies)
			}
		}
		helpers = map[string]bool{}
		for name, body := range bodies {
			helpers[name] = strings.Contains(body, ".Helper()") && logCallRE.MatchString(body) && !failCallRE.MatchString(body)
		}
		s.mu.Lock()
		s.helpers[dir] = helpers
		s.mu.Unlock()
	}
	return helpers[name]
}

// funcBodies adds to bodies the top-level functions and methods of a
// gofmt'ed Go file's lines (from the line that declares one to the next
// line "}"), by name.
func funcBodies(lines []string, bodies map[string]string) {
	for i := 0; i < len(lines); i++ {
		m := funcRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		j := i
		if !strings.HasSuffix(lines[i], "}") {
			for j++; j < len(lines) && lines[j] != "}"; j++ {
			}
		}
		bodies[m[1]] += strings.Join(lines[i:min(j+1, len(lines))], "\n") + "\n"
		i = j
	}
}

// splitLines splits a source file into its lines, without their line ends
// ("\n" or "\r\n": a body ends at a line "}", which "}\r" is not).
func splitLines(data []byte) []string {
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// text returns the source line at "file.go:N", or "".
func (s *sourceLines) text(at string) string {
	i := strings.LastIndexByte(at, ':')
	if i < 0 {
		return ""
	}
	n, err := strconv.Atoi(at[i+1:])
	lines := s.lines(at[:i])
	if err != nil || n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

func (s *sourceLines) lines(file string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines, ok := s.files[file]
	if !ok {
		if data, err := os.ReadFile(file); err == nil {
			lines = splitLines(data)
		}
		s.files[file] = lines
	}
	return lines
}
