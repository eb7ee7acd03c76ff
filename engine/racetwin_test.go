package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// fakeTwinName is the name of the race twin in the fake runs: a symbolic
// link to this test binary, whose fake worker (fakeWorker) plays the
// race-built binary when it runs under that name.
const fakeTwinName = "fake-race-twin"

// fakeRaceReport is what the race detector prints for a race.
const fakeRaceReport = `==================
WARNING: DATA RACE
Write at 0x00c000012345 by goroutine 8:
  example.com/fake.(*cache).put()
      /src/fake/cache.go:20 +0x44

Previous read at 0x00c000012345 by goroutine 7:
  example.com/fake.(*cache).get()
      /src/fake/cache.go:12 +0x38

Goroutine 8 (running) created at:
  example.com/fake.Fill()
      /src/fake/fill.go:9 +0x80
==================
`

// fakeTwin is the fake race twin's execution of an input of 3 bytes or
// more: in mode twinrace a race (in twinraceonce, in the first process of
// the test only), in twindies an exit.
func fakeTwin(mode, dir string) error {
	switch {
	case strings.Contains(mode, "twindies"):
		os.Exit(3)
	case strings.Contains(mode, "twinkilled"):
		self, _ := os.FindProcess(os.Getpid())
		self.Signal(os.Kill) // as the kernel's OOM killer would
		select {}
	case strings.Contains(mode, "twinraceonce") && !once(dir, "twinrace"):
		return nil
	}
	os.Stderr.WriteString(fakeRaceReport)
	return errors.New("--- FAIL: FuzzFake (0.00s)\n    testing.go:1617: race detected during execution of test")
}

// withFakeTwin sets a race twin: a link to this test binary under
// fakeTwinName, and a seed of 3 bytes that the twin replays when fuzzing
// starts (the fake runs fuzz blind: they gain no corpus entries).
func withFakeTwin(t *testing.T) func(*Options) {
	link := filepath.Join(t.TempDir(), fakeTwinName)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	return func(o *Options) {
		o.RaceTwin = link
		o.Seeds = append(o.Seeds, Seed{Path: "seed#1", Values: []any{[]byte("abc")}})
	}
}

// TestRaceTwinFindsRace: a race the twin sees on an input the fuzzing
// workers ran without failing is confirmed in a fresh twin process and
// reported as kind race with the detector's report, not minimized; the
// input is a seed (withFakeTwin), so it is reported against it, as go test
// -race -fuzz would, and nothing is written (a written race: the driver's
// TestFuzzRaceTwin).
func TestRaceTwinFindsRace(t *testing.T) {
	r := runFake(t, "twinrace", 20*time.Second, withFakeTwin(t))
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindRace {
		t.Fatalf("failures = %+v, want one race", fails)
	}
	f := fails[0]
	for _, want := range []string{"fuzzbox: data race in example.com/fake.(*cache).put (cache.go:20), found by replaying the input in the race-built worker\n", "Previous read at", "example.com/fake.(*cache).put()", "race detected during execution of test"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message lacks %q:\n%s", want, f.Message)
		}
	}
	if strings.Contains(f.Message, "==================") {
		t.Errorf("message keeps the separator lines:\n%s", f.Message)
	}
	if f.Reruns != 1 || f.Reproduced != 1 || f.Minimized != "" {
		t.Errorf("reruns %d, reproduced %d, minimized %q: want confirmed by the first re-run, not minimized", f.Reruns, f.Reproduced, f.Minimized)
	}
	if w := r.written(t); len(w) > 0 || f.Seed != "seed#1" {
		t.Errorf("written %v for the race of seed %q, want nothing, seed#1's", w, f.Seed)
	}
	if r.err == nil || !strings.Contains(r.err.Error(), "go test -race -run='^FuzzFake$/^seed#1$'") {
		t.Errorf("the run's error does not say how to replay with -race: %v", r.err)
	}
}

// TestRaceTwinUnconfirmed: a race that no fresh twin process shows again
// is flaky after raceConfirmRuns re-runs: nothing is written.
func TestRaceTwinUnconfirmed(t *testing.T) {
	r := runFake(t, "twinraceonce", 10*time.Second, withFakeTwin(t))
	if r.err != nil {
		t.Fatalf("run failed: %v", r.err)
	}
	flaky := r.ofType(event.Flaky)
	if len(flaky) != 1 || flaky[0].Kind != KindRace || flaky[0].Reruns != raceConfirmRuns || flaky[0].Reproduced != 0 {
		t.Fatalf("flaky events = %+v, want one race with %d re-runs, none racing", flaky, raceConfirmRuns)
	}
	if w := r.written(t); len(w) > 0 {
		t.Errorf("files written under testdata: %v", w)
	}
}

// TestRaceTwinDies: a twin process that dies is fuzzbox's internal error,
// never a failure; fuzzing goes on and the run ends normally.
func TestRaceTwinDies(t *testing.T) {
	r := runFake(t, "twindies", 10*time.Second, withFakeTwin(t))
	if r.err != nil {
		t.Fatalf("run failed: %v", r.err)
	}
	internal := r.ofType(event.InternalError)
	if len(internal) != 1 || !strings.Contains(internal[0].Message, "race twin: the race-built worker died") {
		t.Fatalf("internal errors = %+v, want one saying the twin died", internal)
	}
	if f := r.ofType(event.Failure); len(f) > 0 {
		t.Errorf("a twin's death reported as a failure: %+v", f)
	}
	if w := r.written(t); len(w) > 0 {
		t.Errorf("files written under testdata: %v", w)
	}
}

// TestRaceTwinKilled: a twin process killed from outside (the OOM killer)
// is a warning, once, not fuzzbox's internal error nor a failure.
func TestRaceTwinKilled(t *testing.T) {
	r := runFake(t, "twinkilled", 5*time.Second, withFakeTwin(t))
	if r.err != nil {
		t.Fatalf("run failed: %v", r.err)
	}
	if in := r.ofType(event.InternalError); len(in) > 0 {
		t.Errorf("a twin killed from outside reported as fuzzbox's internal error: %+v", in)
	}
	warns := r.ofType(event.Warning)
	if len(warns) != 1 || !strings.Contains(warns[0].Message, "race twin: the race-built worker was killed") {
		t.Fatalf("warnings = %+v, want one saying the twin was killed", warns)
	}
	if _, ok := oomKills(); ok && !strings.Contains(warns[0].Message, "not the kernel's OOM killer") {
		t.Errorf("the twin killed itself, but the warning does not say it was not the OOM killer: %s", warns[0].Message)
	}
	if f := append(r.ofType(event.Failure), r.ofType(event.Flaky)...); len(f) > 0 {
		t.Errorf("a twin's death reported as a failure: %+v", f)
	}
}

// TestTwinQueue: the loop hands the twin an input at once when it waits,
// queues the others oldest first, and skips (and counts) those past
// twinQueueCap; a request counts the input the twin finished.
func TestTwinQueue(t *testing.T) {
	c := &coordinator{twinIn: make(chan *entry, 1), corpus: newQueue(false), setup: &setup{rep: &reporter{}}}
	c.twinReady(twinReady{}) // the twin's first request: nothing queued
	if !c.twinQ.waiting {
		t.Fatal("the twin is not waiting after asking for an empty queue")
	}
	c.toTwin(&entry{enc: []byte("a")})
	if got := string((<-c.twinIn).enc); got != "a" || c.twinQ.waiting || len(c.twinQ.items) != 0 {
		t.Fatalf("got %q, waiting %v, queued %d: want a handed at once", got, c.twinQ.waiting, len(c.twinQ.items))
	}
	for i := range twinQueueCap + 3 {
		c.toTwin(&entry{enc: []byte{byte(i)}})
	}
	if len(c.twinQ.items) != twinQueueCap || c.twinQ.skipped != 3 {
		t.Fatalf("queued %d, skipped %d: want %d and 3", len(c.twinQ.items), c.twinQ.skipped, twinQueueCap)
	}
	c.twinReady(twinReady{ran: true})
	if got := (<-c.twinIn).enc; got[0] != 0 || c.twinQ.replayed != 1 {
		t.Fatalf("got %v, replayed %d: want the oldest input and one replayed", got, c.twinQ.replayed)
	}
	e := c.statsEvent(event.Stats, 0)
	if e.RaceReplayed != 1 || e.RaceSkipped != 3 {
		t.Errorf("stats event has race_replayed %d, race_skipped %d: want 1 and 3", e.RaceReplayed, e.RaceSkipped)
	}
}

// TestRaceReports: the race detector's reports are taken whole, without
// their separators; an incomplete last one waits.
func TestRaceReports(t *testing.T) {
	out := "some output\n" + fakeRaceReport + "--- FAIL: x\n" + fakeRaceReport
	got := raceReports(out)
	if n := strings.Count(got, "WARNING: DATA RACE"); n != 2 || strings.Contains(got, "=====") {
		t.Errorf("raceReports = %q, want both reports without separators", got)
	}
	if got := raceReports("==================\nWARNING: DATA RACE\nWrite at 0x1 by goroutine 8:\n"); got != "" {
		t.Errorf("an incomplete report gave %q, want none yet", got)
	}
}

// TestRaceTwinExecLimit: under an execution limit the fuzzing workers stop
// without a soft stop; the run must stop the twin then, not wait for it.
func TestRaceTwinExecLimit(t *testing.T) {
	twin := withFakeTwin(t)
	r := runFake(t, "none", 0, func(o *Options) {
		twin(o)
		o.Limit = 2000
	})
	if r.err != nil {
		t.Fatalf("run failed: %v", r.err)
	}
	done := r.ofType(event.Done)
	if len(done) != 1 || done[0].Execs < 2000 {
		t.Fatalf("done events = %+v, want one after the 2000 executions", done)
	}
}
