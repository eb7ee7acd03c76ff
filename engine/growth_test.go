package engine

import (
	"strings"
	"testing"
	"time"
)

// TestGrowthHung: past the timeout, an execution is hung unless its memory
// grew within the last growthWindow at a rate that reaches -rss_limit_mb
// within growthTimeouts timeouts of its start; past those it is hung
// however it grows. Readings are every 50 ms, as the watchdog's.
func TestGrowthHung(t *testing.T) {
	const timeout = 10 * time.Second
	for _, tt := range []struct {
		name    string
		mib     func(s float64) int // resident MiB s seconds into the execution
		ran     time.Duration
		limitMB int
		hung    bool
		why     string // in the reason, when hung and grown
	}{
		{"under the timeout", func(float64) int { return 300 }, 9 * time.Second, 2048, false, ""},
		{"flat past the timeout", func(float64) int { return 300 }, 10050 * time.Millisecond, 2048, true, ""},
		// x/text's HZ-GB2312 decoder on "~": 1,786 MiB at 9 s, then none
		// for 3 s (its doubling's copy), the limit at 13 s.
		{"a pause past the timeout", func(s float64) int { return 160 + int(min(s, 9)*180) }, 10500 * time.Millisecond, 2048, true, "not grown for"},
		{"headed for the limit", func(s float64) int { return 160 + int(s*150) }, 10500 * time.Millisecond, 2048, false, ""},
		{"too slow for the limit", func(s float64) int { return 160 + int(s*50) }, 10500 * time.Millisecond, 2048, true, "too slowly to reach -rss_limit_mb=2048"},
		{"no limit to reach", func(s float64) int { return 160 + int(s*150) }, 10500 * time.Millisecond, 0, true, "no -rss_limit_mb"},
		{"past twice the timeout", func(s float64) int { return 160 + int(s*50) }, 20050 * time.Millisecond, 1 << 20, true, "past twice the timeout"},
		{"a slow page-fault fill, headed", func(s float64) int { return 160 + int(s*110) }, 19 * time.Second, 2300, false, ""},
	} {
		start := time.Unix(1000, 0)
		var g growth
		g.begin(start, 0) // the first reading stands for the start
		var now time.Time
		for d := time.Duration(0); d <= tt.ran; d += 50 * time.Millisecond {
			now = start.Add(d)
			g.sample(now, tt.mib(d.Seconds()))
		}
		hung, why := g.hung(now, now.Sub(start), timeout, tt.limitMB)
		if hung != tt.hung || !strings.Contains(why, tt.why) || (why != "") != (hung && g.grew()) {
			t.Errorf("%s: hung = %v, %q; want %v, %q", tt.name, hung, why, tt.hung, tt.why)
		}
	}
}

// TestGrowthSteps: a step of growth is rssProgressMB over the last one; a
// reading that falls lowers the mark, so growth counts from there; an
// unread sample (0) changes nothing.
func TestGrowthSteps(t *testing.T) {
	start := time.Unix(1000, 0)
	var g growth
	g.begin(start, 200)
	g.sample(start.Add(time.Second), 200+rssProgressMB) // not more than a step
	if g.grew() || g.last != start {
		t.Fatalf("a gain of rssProgressMB is a step: %+v", g)
	}
	g.sample(start.Add(2*time.Second), 0)
	g.sample(start.Add(3*time.Second), 100) // shrank
	g.sample(start.Add(4*time.Second), 100+rssProgressMB+1)
	if !g.grew() || !g.last.Equal(start.Add(4*time.Second)) {
		t.Errorf("a step over a fallen mark was not counted: %+v", g)
	}
}

// TestGrowthSlow: an execution is slow for an early confirmation once it has
// run a tenth of the timeout or grown by a tenth of the memory limit, and
// growth counts only under a limit.
func TestGrowthSlow(t *testing.T) {
	start := time.Unix(1000, 0)
	grown := func(mb int) *growth {
		var g growth
		g.begin(start, 100)
		g.sample(start.Add(time.Second), 100+mb)
		return &g
	}
	for _, c := range []struct {
		g       *growth
		ran     time.Duration
		limitMB int
		want    bool
	}{
		{grown(0), 900 * time.Millisecond, 2048, false},
		{grown(0), 1100 * time.Millisecond, 2048, true},
		{grown(150), 500 * time.Millisecond, 2048, false},
		{grown(210), 500 * time.Millisecond, 2048, true},
		{grown(210), 500 * time.Millisecond, 0, false},
		{grown(2000), 500 * time.Millisecond, 0, false},
	} {
		if got := c.g.slow(c.ran, 10*time.Second, c.limitMB); got != c.want {
			t.Errorf("grown %d MiB, ran %v, limit %d MiB: slow = %v, want %v", c.g.grownMB(), c.ran, c.limitMB, got, c.want)
		}
	}
}
