package driver

import (
	"regexp"
	"strings"
)

// framingHeads are the starts of go test's lines that fuzzbox reads in a
// test binary's output: a test's result line (top level or, indented, a
// subtest's), and -v's line for a test that starts.
var framingHeads = []string{"--- FAIL: ", "--- PASS: ", "--- SKIP: ", "=== RUN   "}

// loggedRE matches the start of a line t.Log and t.Error print.
var loggedRE = regexp.MustCompile(`^\s+[^\s:]+\.go:\d+: `)

// splitFraming splits one line of the binary's output where go test's
// framing follows text a test printed without a newline. The testing
// package starts its lines without ending the output before them, so a
// test's fmt.Print("x") then a passing run reads "xPASS", and then a
// failing fuzz test "x--- FAIL: FuzzX (": go test shows such a line as
// it is, but the framing must be seen where it is (copyOutput holds the
// failure report and the trailer, prefuzzWatch reads the results).
//
// A result line splits where its head is; its indentation goes with it. A
// line ending in the final "PASS" or "FAIL" splits there unless an
// upper-case letter or a space comes before it (a word such as BYPASS or a
// message such as "status: PASS"; "42PASS" and "]PASS" split). A line the
// testing package logged (t.Log's "    file.go:12: ") never splits: it ends
// in a newline, so what it says, such as a tool's "--- FAIL: TestX"
// quoted by its own tests, is a message.
func splitFraming(line string) []string {
	if loggedRE.MatchString(line) {
		return []string{line}
	}
	for _, head := range framingHeads {
		i := strings.Index(line, head)
		if i <= 0 {
			continue
		}
		j := i
		for j > 0 && line[j-1] == ' ' {
			j--
		}
		if j > 0 {
			return []string{line[:j], line[j:]}
		}
	}
	for _, end := range []string{"PASS", "FAIL"} {
		if len(line) > len(end) && strings.HasSuffix(line, end) {
			c := line[len(line)-len(end)-1]
			if c != ' ' && c != '\t' && (c < 'A' || c > 'Z') {
				return []string{line[:len(line)-len(end)], end}
			}
		}
	}
	return []string{line}
}

// framedLines returns the lines of a test binary's whole output, split as
// splitFraming splits each.
func framedLines(out string) []string {
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		lines = append(lines, splitFraming(line)...)
	}
	return lines
}
