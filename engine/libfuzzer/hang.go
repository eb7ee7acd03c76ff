package libfuzzer

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
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

// running is when the input being run started (UnixNano), 0 between
// inputs; serve sets it.
var running atomic.Int64

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
func watchHangs(timeout time.Duration) {
	if timeout <= 0 {
		return
	}
	limit := timeout * 9 / 10
	tick := min(limit/10, time.Second)
	var dumped int64
	for range time.Tick(tick) {
		start := running.Load()
		if start == 0 || start == dumped || time.Since(time.Unix(0, start)) < limit {
			continue
		}
		dumped = start
		fmt.Fprintf(os.Stderr, "\n--- fuzzbox: the input has run for %s, nine tenths of libFuzzer's -timeout of %s; every goroutine's stack, the input's first:\n%s\n",
			time.Since(time.Unix(0, start)).Round(time.Millisecond), timeout, inputFirst(allStacks()))
	}
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
func inputFirst(stacks []byte) string {
	var input, other []string
	for _, g := range strings.Split(strings.TrimSpace(string(stacks)), "\n\n") {
		switch {
		case strings.Contains(g, "engine/basedeps.ballast("), strings.Contains(g, "engine/libfuzzer.allStacks("):
		case strings.Contains(g, "testing.tRunner("):
			input = append(input, g)
		default:
			other = append(other, g)
		}
	}
	return strings.Join(append(input, other...), "\n\n")
}
