package driver

import (
	"context"
	"os"
	"path/filepath"
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
