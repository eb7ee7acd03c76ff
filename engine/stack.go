package engine

import (
	"strings"

	"github.com/fuzzbox/fuzzbox/engine/basedeps"
)

// Goroutine stacks in workers: see basedeps.StackBallast. The coordinator
// sets adaptivestackstart=1 for its workers (adaptiveStacks), unless the
// user's GODEBUG sets it.

// adaptiveStacks returns the worker's GODEBUG: the coordinator's with
// adaptivestackstart=1 added, unless it sets adaptivestackstart itself.
func adaptiveStacks(godebug string) string {
	if basedeps.AdaptiveStackSetting(godebug) != "" {
		return godebug
	}
	if godebug == "" {
		return "adaptivestackstart=1"
	}
	return godebug + ",adaptivestackstart=1"
}

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
