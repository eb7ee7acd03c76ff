package engine

import (
	"fmt"
	"time"
)

// An execution whose resident memory keeps growing may be on its way to
// -rss_limit_mb: an oom to come, reported with the allocating stack. Page
// faults can make filling a huge allocation take longer than the timeout
// (2 GiB took about 6 s here, twice that under load). So the watchdog lets
// such an execution run past the timeout, but only while it is headed for
// the limit: it grew within the last growthWindow, and at its rate since it
// began it reaches the limit within growthTimeouts timeouts of its start.
// Otherwise it is a hang at the timeout, as go test -fuzz and libFuzzer call
// it: an endless loop that builds a result (golang.org/x/text's HZ-GB2312
// decoder on a lone "~", golang/go#35118) grew here for 13 s before it
// reached the limit, and the growth bound alone made its report wait for
// that; a slow input that builds a large result and ends under the limit
// (gopher-lua's parser on 8 KB of f""""…) ran on for 97 s before there was
// any bound.

// growthTimeouts is how many timeouts an execution whose memory keeps
// growing may run before it is a hang however it grows.
const growthTimeouts = 2

// rssProgressMB is how much resident memory an execution must gain for the
// watchdog to count it as a step of growth.
const rssProgressMB = 32

// growth follows the resident memory of the execution a worker runs, read
// by the watchdog.
type growth struct {
	startMB int       // resident MiB when the execution began (its first reading), or its least since
	lastMB  int       // at its last step of growth, or lower if it shrank since
	last    time.Time // when it last grew by rssProgressMB
}

// begin starts following an execution begun at now with rssMB resident (0:
// not read; the first reading stands for it).
func (g *growth) begin(now time.Time, rssMB int) {
	*g = growth{startMB: rssMB, lastMB: rssMB, last: now}
}

// sample records a reading of the execution's resident memory (0: not
// read).
func (g *growth) sample(now time.Time, rssMB int) {
	switch {
	case rssMB == 0:
	case g.startMB == 0:
		g.startMB, g.lastMB = rssMB, rssMB
	case rssMB > g.lastMB+rssProgressMB:
		g.lastMB, g.last = rssMB, now
	case rssMB < g.lastMB:
		g.lastMB, g.startMB = rssMB, min(g.startMB, rssMB)
	}
}

// grew reports whether the execution's memory grew since it began: a hang
// of such an input says so (whileGrew), and an oom confirms it.
func (g *growth) grew() bool { return g.lastMB > g.startMB }

// grownMB returns how much the execution's resident memory grew since it
// began.
func (g *growth) grownMB() int { return g.lastMB - g.startMB }

// slow reports whether an execution that has run ran is slow enough for an
// early confirmation (early.go): it ran a tenth of the timeout, or grew the
// worker's resident memory by a tenth of the memory limit.
func (g *growth) slow(ran, timeout time.Duration, limitMB int) bool {
	return ran > timeout/slowFraction || limitMB > 0 && g.grownMB()*slowFraction >= limitMB
}

// growthWindow is how recently an execution past the timeout must have
// grown to be headed for the limit: a tenth of the timeout, at least a
// second (reading every 50 ms, a machine under load sees steps late).
func growthWindow(timeout time.Duration) time.Duration {
	return max(timeout/slowFraction, time.Second)
}

// hung reports whether an execution that has run ran (at now) is hung, and,
// if it is and its memory grew, why growth did not excuse it.
func (g *growth) hung(now time.Time, ran, timeout time.Duration, limitMB int) (hung bool, why string) {
	switch {
	case ran <= timeout:
		return false, ""
	case !g.grew():
		return true, ""
	case ran > growthTimeouts*timeout:
		return true, fmt.Sprintf("past twice the timeout of %v, the longest an execution may run while its memory grows", timeout)
	case limitMB <= 0:
		return true, fmt.Sprintf("past the timeout of %v, with no -rss_limit_mb to reach", timeout)
	case now.Sub(g.last) > growthWindow(timeout):
		return true, fmt.Sprintf("past the timeout of %v; it had not grown for %v", timeout, now.Sub(g.last).Round(100*time.Millisecond))
	}
	rate := float64(g.lastMB-g.startMB) / ran.Seconds() // MiB/s
	reach := ran + time.Duration(float64(limitMB-g.lastMB)/rate*float64(time.Second))
	if reach <= growthTimeouts*timeout {
		return false, ""
	}
	return true, fmt.Sprintf("past the timeout of %v, at %.0f MiB/s too slowly to reach -rss_limit_mb=%d within twice it", timeout, rate, limitMB)
}
