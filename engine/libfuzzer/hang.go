package libfuzzer

import (
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// A hang's report. libFuzzer's -timeout report prints the engine thread's
// C stack, which ends in the hand-off: nothing of the Go code that hangs.
// So a watchdog prints every goroutine's stack once an input has run for
// nine tenths of libFuzzer's -timeout, before libFuzzer's own check (every
// timeout/2+1 s, for an input that has run at least the timeout) can end
// the process. An input that then finishes in time leaves only this note.

// defaultTimeout is libFuzzer's -timeout when none is given.
const defaultTimeout = 1200 * time.Second

// running is when the input being run started, in nanoseconds after epoch
// plus one (a monotonic clock: one clock read, where time.Now takes two),
// 0 between inputs; serve sets it (inputStarted).
var running atomic.Int64

var epoch = time.Now()

// inputStarted records that an input starts now, for watchHangs.
func inputStarted() { running.Store(int64(time.Since(epoch)) + 1) }

// unitTimeout returns libFuzzer's -timeout from its command line args (the
// last one wins, as libFuzzer parses them); 0 means none.
func unitTimeout(args []string) time.Duration {
	t := defaultTimeout
	for _, a := range args {
		v, ok := strings.CutPrefix(a, "-timeout=")
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(v); err == nil {
			t = time.Duration(n) * time.Second
		}
	}
	return t
}

// watchHangs prints every goroutine's stack to stderr when an input has run
// for nine tenths of timeout, once per input; it never returns. A timeout
// of 0 (libFuzzer's -timeout=0: none) makes it return at once.
//
// What it runs while an input runs is the input's coverage as libFuzzer sees
// it: so it uses only packages compiled without coverage instrumentation
// (reportPackages; TestHangReportUninstrumented), not fmt, strings or os.
func watchHangs(timeout time.Duration) {
	if timeout <= 0 {
		return
	}
	// libFuzzer may end the process as soon as the input has run timeout:
	// a tick of a fortieth of the limit dumps by 0.92 of it, which leaves
	// the dump 150 ms of a 2-s timeout to land in under load (a tenth left
	// it 20 ms, and a loaded machine's report came first).
	limit := timeout * 9 / 10
	tick := min(limit/40, time.Second)
	var dumped int64
	for range time.Tick(tick) {
		start := running.Load()
		ran := time.Since(epoch) - time.Duration(start-1)
		if start == 0 || start == dumped || ran < limit {
			continue
		}
		dumped = start
		report := hangReport(ran.Round(time.Millisecond), timeout, allStacks())
		for len(report) > 0 {
			n, err := syscall.Write(syscall.Stderr, report)
			if err != nil && err != syscall.EINTR {
				break
			}
			report = report[max(n, 0):]
		}
	}
}

// reportPackages are the packages the hang report's functions may use: the
// ones driver/build compiles without coverage instrumentation.
var reportPackages = []string{"runtime", "sync/atomic", "syscall", "time"}

// hangReport is the note watchHangs prints for an input that has run for
// ran, with the stacks of allStacks.
func hangReport(ran, timeout time.Duration, stacks []byte) []byte {
	b := append([]byte(nil), "\n--- fuzzbox: the input has run for "...)
	b = append(b, ran.String()...)
	b = append(b, ", nine tenths of libFuzzer's -timeout of "...)
	b = append(b, timeout.String()...)
	b = append(b, "; every goroutine's stack, the input's first:\n"...)
	b = append(b, inputFirst(stacks)...)
	return append(b, '\n')
}

// allStacks returns every goroutine's stack, as a panic prints them.
func allStacks() []byte {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 64<<20 {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// inputFirst reorders stacks (runtime.Stack's, blank-line separated): the
// goroutines testing runs inputs in (tRunner) first, then the others,
// without the stack ballast's and the watchdog's own.
func inputFirst(stacks []byte) []byte {
	var input, other [][]byte
	for _, g := range splitBlank(trimNewlines(stacks)) {
		switch {
		case contains(g, "engine/basedeps.ballast("), contains(g, "engine/libfuzzer.allStacks("):
		case contains(g, "testing.tRunner("):
			input = append(input, g)
		default:
			other = append(other, g)
		}
	}
	var out []byte
	for i, g := range append(input, other...) {
		if i > 0 {
			out = append(out, "\n\n"...)
		}
		out = append(out, g...)
	}
	return out
}

// splitBlank splits b at blank lines ("\n\n").
func splitBlank(b []byte) [][]byte {
	var parts [][]byte
	start := 0
	for i := 0; i+1 < len(b); i++ {
		if b[i] == '\n' && b[i+1] == '\n' {
			parts = append(parts, b[start:i])
			start = i + 2
			i++
		}
	}
	return append(parts, b[start:])
}

func trimNewlines(b []byte) []byte {
	for len(b) > 0 && b[0] == '\n' {
		b = b[1:]
	}
	for len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	return b
}

// contains reports whether b contains s.
func contains(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return true
		}
	}
	return false
}
