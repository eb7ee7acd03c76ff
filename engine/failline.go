package engine

import (
	"os"
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
// failCallRE one that calls a method that fails the test.
var (
	logCallRE  = regexp.MustCompile(`\.Logf?\(`)
	failCallRE = regexp.MustCompile(`\.(Error|Errorf|Fatal|Fatalf|Fail|FailNow)\(`)
)

// failLine returns the line of a fail's message that says what failed:
// its first reported line (file.go:N: …) whose source line is not a log
// call, or, when every one is, the message's first line. A source line
// that cannot be read counts as no log call.
func failLine(msg string) string {
	indent := -1
	for _, raw := range strings.Split(msg, "\n") {
		l := strings.TrimSpace(raw)
		m := reportedAtRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		// A reported line is as indented as the first; a line indented
		// more continues a multi-line message, which may quote the input
		// ("x_test.go:1: made up" in a logged input).
		switch n := len(raw) - len(strings.TrimLeft(raw, " \t")); {
		case indent < 0:
			indent = n
		case n != indent:
			continue
		}
		if !sources.logCall(m[1]) {
			return l
		}
	}
	return firstLine(msg)
}

// lineOf is the line of a failure's message that says what failed: a
// fail's failLine, another kind's first line.
func lineOf(kind, msg string) string {
	if kind == KindFail {
		return failLine(msg)
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
var sources = &sourceLines{files: map[string][]string{}}

type sourceLines struct {
	mu    sync.Mutex
	files map[string][]string // file name as reported → its lines; nil when unreadable
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
	return logCallRE.MatchString(line) && !failCallRE.MatchString(line)
}

func (s *sourceLines) lines(file string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines, ok := s.files[file]
	if !ok {
		if data, err := os.ReadFile(file); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		s.files[file] = lines
	}
	return lines
}
