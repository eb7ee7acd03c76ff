package event

import (
	"regexp"
	"strings"
)

// systemLimitRE matches what the Go runtime or the system says when it
// refuses a process a thread or a process. Not "too many open files": code
// that leaks a file per input fails so, its own bug.
var systemLimitRE = regexp.MustCompile(`failed to create new OS thread|fatal error: newosproc|pthread_create failed|fork/exec [^\n]*: resource temporarily unavailable`)

// SystemLimit returns, when out (a process's output, an error's text) says
// the system refused a thread or process, what says so and the limit that
// did; "" and "" otherwise.
// That is the machine's limit, not a failure of the code under test nor a
// bug of fuzzbox's: the engine stops the run with it, and the front ends
// report a fuzzing binary that died so as such.
func SystemLimit(out string) (what, limit string) {
	m := systemLimitRE.FindString(out)
	if m == "" {
		return "", ""
	}
	return strings.TrimSpace(m), "the number of processes and threads (ulimit -u, or the cgroup's pids.max)"
}
