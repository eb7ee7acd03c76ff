package driver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// TestSetAside: a reproducer go test does not fail on is moved out of
// testdata/ to the cache (and the directories the engine made for it go), but
// a seed file that was there before the run is the user's and stays.
func TestSetAside(t *testing.T) {
	pkg, cache := t.TempDir(), t.TempDir()
	r := &TargetResult{Target: Target{Name: "FuzzX", Dir: pkg, Package: "example.com/p"}}
	seeds := filepath.Join(pkg, "testdata", "fuzz", "FuzzX")
	cfg := Config{CacheDir: cache}

	c := newChecker(context.Background(), cfg, r, newStream(nil)) // no testdata yet
	os.MkdirAll(seeds, 0o777)
	written := filepath.Join(seeds, "0123456789abcdef")
	os.WriteFile(written, []byte("go test fuzz v1\n[]byte(\"x\")\n"), 0o666)
	if got := c.setAside(written, "0123456789abcdef"); !strings.HasPrefix(got, "moved to ") {
		t.Fatalf("setAside = %q", got)
	}
	if _, err := os.Stat(filepath.Join(cache, unreproducedDir, "FuzzX", "0123456789abcdef")); err != nil {
		t.Errorf("not in the cache: %v", err)
	}
	if _, err := os.Stat(filepath.Join(pkg, "testdata")); err == nil {
		t.Errorf("testdata/, made for the reproducer, was left behind")
	}

	os.MkdirAll(seeds, 0o777)
	mine := filepath.Join(seeds, "mine")
	os.WriteFile(mine, []byte("go test fuzz v1\n[]byte(\"y\")\n"), 0o666)
	c = newChecker(context.Background(), cfg, r, newStream(nil))
	if got := c.setAside(mine, "mine"); !strings.Contains(got, "is yours and stays") {
		t.Errorf("setAside of the user's seed = %q", got)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the user's seed file was moved: %v", err)
	}
	if newChecker(context.Background(), Config{Binary: "x.fuzz"}, r, newStream(nil)) != nil {
		t.Error("a prebuilt binary's failures are checked with go test")
	}
	if newChecker(context.Background(), Config{Binary: "x.fuzz", StockBinary: "x.test"}, r, newStream(nil)) == nil {
		t.Error("a prebuilt binary's failures are not checked with its stock binary")
	}
}

// TestStreamTimesGoForward: an event stamped before the last one emitted
// (the engine's done event, held back while the driver replayed a failure
// with go test and reported what it saw) is emitted at the last one's
// time: a status line's elapsed time never goes back.
func TestStreamTimesGoForward(t *testing.T) {
	var got []event.Event
	s := newStream(func(e event.Event) { got = append(got, e) })
	done := event.Event{Type: event.Done, Time: s.start.Add(96 * time.Second)}
	s.emit(event.Event{Type: event.Warning, Time: s.start.Add(100 * time.Second)})
	s.emit(done)
	s.emit(event.Event{Type: event.Output})
	if len(got) != 3 || got[1].Elapsed != 100000 || !got[1].Time.Equal(got[0].Time) {
		t.Fatalf("events %+v: want the done event at the warning's 100 s", got)
	}
	if got[2].Elapsed < got[1].Elapsed || got[2].Elapsed > 100000 {
		t.Errorf("an event stamped now came at %d ms, after one at 100 s: want the 100 s too", got[2].Elapsed)
	}
}

// TestLeaveOut: a turn whose baseline stopped only at slow inputs is
// followed by one without them, unless another failure go test passes came
// too (an internal error: not fuzzed), -keepgoing went on past them, an
// input left out already stopped it again, or maxLeftOut would be passed.
func TestLeaveOut(t *testing.T) {
	var none *checker // a prebuilt binary's run: nothing is checked
	if _, ok := none.leaveOut(); ok {
		t.Error("a nil checker leaves inputs out")
	}
	r := &TargetResult{}
	c := &checker{r: r, slowBefore: []string{"seed#0", "seed#3"}}
	if names, ok := c.leaveOut(); !ok || !slices.Equal(names, []string{"seed#0", "seed#3"}) {
		t.Errorf("leaveOut() = %q, %v; want the two slow seeds", names, ok)
	}
	for _, tc := range []struct {
		why    string
		change func(c *checker)
	}{
		{"another refuted failure", func(c *checker) { c.otherBefore = true }},
		{"-keepgoing", func(c *checker) { c.cfg.KeepGoing = true }},
		{"no slow input", func(c *checker) { c.slowBefore = nil }},
		{"left out before", func(c *checker) { c.r.leaveOut = []string{"seed#3"} }},
		{"past maxLeftOut", func(c *checker) { c.r.leaveOut = make([]string, maxLeftOut-1) }},
	} {
		c := &checker{r: &TargetResult{}, slowBefore: []string{"seed#0", "seed#3"}}
		tc.change(c)
		if names, ok := c.leaveOut(); ok {
			t.Errorf("%s: leaveOut() = %q, true; want no next turn", tc.why, names)
		}
	}
}

// TestSameSignal: a replay ended by the signal that ended fuzzbox's worker
// on the input (the input sent it itself) reproduces the failure; one ended
// by another signal, or a failure without one, is a kill from outside.
func TestSameSignal(t *testing.T) {
	own := "panic: ...\n(fuzzbox: the worker process died: signal: terminated)"
	if !sameSignal("FAIL\nsignal: terminated\n", own) {
		t.Error("the input's own SIGTERM: want it reproduced")
	}
	if sameSignal("signal: killed\n", own) || sameSignal("signal: terminated\n", "panic: boom") || sameSignal("ok\n", own) {
		t.Error("another signal, or none: want a kill from outside")
	}
}
