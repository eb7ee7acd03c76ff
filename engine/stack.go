package engine

import (
	"strings"

	"github.com/fuzzbox/fuzzbox/engine/basedeps"
)

// Goroutine stacks in workers: see basedeps.StackBallast. The runtime's
// adaptivestackstart is on by default (the user's GODEBUG may turn it off):
// workers get no GODEBUG of fuzzbox's, which the code under test, and the
// processes it starts, would see where go test sets none.

// dropIdle removes from a dump of every goroutine the worker's own idle
// goroutines: the stack ballast and the SIGQUIT handler (quit.go), which say
// nothing about the failure.
func dropIdle(dump string) string {
	if !strings.Contains(dump, basedeps.BallastFrame) && !strings.Contains(dump, quitFrame) {
		return dump
	}
	blocks := goroutineGapRE.Split(dump, -1)
	kept := blocks[:0]
	for _, b := range blocks {
		if !strings.Contains(b, basedeps.BallastFrame) && !strings.Contains(b, quitFrame) {
			kept = append(kept, b)
		}
	}
	return strings.Join(kept, "\n\n")
}
