package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/event"
)

// TestDropOversized: an entry too large for a worker's shared memory is
// left out with a warning that names it (it would never reach the fuzz
// function); the others stay, in order.
func TestDropOversized(t *testing.T) {
	events := new(bytes.Buffer)
	c := &coordinator{setup: &setup{rep: &reporter{events: events}}}
	small := newEntry([]any{[]byte("ok")}, nil, "seed#0", true)
	big := newEntry([]any{make([]byte, 64)}, nil, "testdata/fuzz/FuzzX/big", true)
	zero := newEntry([]any{[]byte{}}, nil, zeroPath, false)
	got := c.dropOversized([]*entry{small, big, zero}, 32)
	if len(got) != 2 || got[0] != small || got[1] != zero {
		t.Errorf("kept %d entries, want seed#0 and the zero input", len(got))
	}
	var warnings []string
	for _, e := range decodeEvents(t, events) {
		if e.Type == event.Warning {
			warnings = append(warnings, e.Message)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "testdata/fuzz/FuzzX/big") || !strings.Contains(warnings[0], "not run while fuzzing") {
		t.Errorf("warnings %q: want one naming the big entry", warnings)
	}
}

// TestWaitingEvent: the statistics tick says what go test -fuzz says while
// fuzzing has not started (the baseline's progress) or waits for a
// failure's minimization; with -keepgoing fuzzing goes on meanwhile, and
// the tick's statistics stand.
func TestWaitingEvent(t *testing.T) {
	c := &coordinator{setup: &setup{rep: &reporter{}}, inputs: make([]*entry, 5), next: 3, pending: 1}
	if e, ok := c.waitingEvent(); !ok || e.Type != event.Baseline || e.Progress != "2/5" {
		t.Errorf("during the baseline: %+v, %v; want a baseline event at 2/5", e, ok)
	}
	c.fuzzing = true
	if e, ok := c.waitingEvent(); ok {
		t.Errorf("while fuzzing: %+v; want the statistics", e)
	}
	c.rep.minimizing.Add(1)
	if e, ok := c.waitingEvent(); !ok || e.Type != event.Minimizing || e.Kind != "" {
		t.Errorf("while minimizing: %+v, %v; want a minimizing event without kind", e, ok)
	}
	c.opts.KeepGoing = true
	if e, ok := c.waitingEvent(); ok {
		t.Errorf("while minimizing with -keepgoing: %+v; want the statistics (fuzzing goes on)", e)
	}
}

// TestSeedFailure: a failing seed corpus entry is reported as go test -fuzz
// reports it: against the entry (f.Add's seed#N, a testdata file's name),
// not minimized, nothing written, and Coordinate's error is no crash with
// a "Failing input written to" file. A failure of the zero input, which go
// test adds when there is no seed, is a crash like any other (seedOf).
func TestSeedFailure(t *testing.T) {
	for _, tc := range []struct{ name, path string }{
		{"seed#1", "seed#1"},
		{"long", "testdata/fuzz/FuzzFake/long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runFake(t, "bug", 5*time.Second, func(o *Options) {
				o.Seeds = append(o.Seeds, Seed{Path: tc.path, Values: []any{[]byte("123456789")}})
			})
			fails := r.ofType(event.Failure)
			if len(fails) != 1 || fails[0].Seed != tc.name || fails[0].Minimized != "" || !strings.Contains(fails[0].Message, "real failure") {
				t.Fatalf("failures %+v: want one of seed %s, not minimized; events %+v", fails, tc.name, r.events)
			}
			if want := strings.TrimPrefix(tc.path, "seed#1"); fails[0].Reproducer != want {
				t.Errorf("reproducer %q, want %q (the seed's own file, if any)", fails[0].Reproducer, want)
			}
			if names := r.written(t); len(names) > 0 {
				t.Errorf("wrote %q for a failing seed", names)
			}
			if _, crash := r.err.(interface{ CrashPath() string }); crash || r.err == nil || !strings.Contains(r.err.Error(), "real failure") {
				t.Errorf("Coordinate returned %#v: want a plain error with the failure's message", r.err)
			}
			line := event.Format(fails[0])
			if !strings.HasPrefix(line, "failure while testing seed corpus entry: FuzzFake/"+tc.name+" ") {
				t.Errorf("status line %q: want go test's", line)
			}
		})
	}
	zero := newEntry([]any{[]byte{}}, nil, zeroPath, true) // alone, it is the corpus
	if s := seedOf(zero); s != (seedRef{}) {
		t.Errorf("seedOf(the zero input) = %+v, want none", s)
	}
}

// TestSeedsFirst: the inputs after the seeds (the zero input, the generated
// corpus) wait until every seed has run. A fuzz test that fails on every
// input is reported against its seed, as go test -fuzz reports it (it runs
// no zero input beside seeds), even when the seed is slow and a generated
// input would fail first on the other worker: nothing is minimized or
// written.
func TestSeedsFirst(t *testing.T) {
	cache := t.TempDir()
	data, err := corpus.Marshal([]byte("abc"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, "abc"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runFake(t, "slowseedbug", 10*time.Second, func(o *Options) {
		o.Seeds = []Seed{{Path: "seed#0", Values: []any{[]byte("Slow")}}}
		o.CacheDir = cache
	})
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Seed != "seed#0" || !strings.Contains(fails[0].Message, "the slow seed") {
		t.Errorf("failures %+v: want one, of seed#0", fails)
	}
	if names := r.written(t); len(names) > 0 {
		t.Errorf("wrote %q: a generated input ran before the seed's failure", names)
	}
}

// TestDuplicatesCounted: with -keepgoing, a bug fuzzing keeps hitting is
// reported as duplicate events of its bucket, one per statistics interval
// with the count, not one per input.
func TestDuplicatesCounted(t *testing.T) {
	r := runFake(t, "bug", 4*time.Second, func(o *Options) { o.KeepGoing = true })
	var events, dups int
	for _, e := range r.ofType(event.Failure) {
		if e.Duplicate {
			events++
			dups += max(1, e.Count)
		}
	}
	if dups < 10 || events > 4 {
		t.Errorf("%d duplicates in %d events: want many, in one per bucket and 3-s interval (and one at the end)", dups, events)
	}
}

// TestFoundAgain: an input found again with bits it did not reach before
// (code whose coverage varies: gojq's builtins lists a map) is not a second
// corpus entry; its coverage event names the entry it is.
func TestFoundAgain(t *testing.T) {
	c, events := fakeCoordinator(t, "", func(o *Options) { o.CacheDir = t.TempDir() })
	c.covLen, c.global = 4, make([]byte, 4)
	c.addFound(foundInput{e: newEntry([]any{[]byte("builtins[]")}, nil, "", false), cov: []byte{1, 0, 0, 0}})
	c.addFound(foundInput{e: newEntry([]any{[]byte("builtins[]")}, nil, "", false), cov: []byte{0, 1, 0, 0}})
	c.addFound(foundInput{e: newEntry([]any{[]byte("other")}, nil, "", false), cov: []byte{0, 0, 1, 0}})
	if n := c.corpus.len(); n != 2 {
		t.Errorf("corpus of %d entries, want 2: the input found twice is one", n)
	}
	var cov []event.Event
	for _, e := range decodeEvents(t, events) {
		if e.Type == event.Coverage {
			cov = append(cov, e)
		}
	}
	if len(cov) != 3 || cov[1].Reproducer != cov[0].Reproducer || cov[1].Corpus != 1 || cov[1].Edges != 1 || cov[2].Corpus != 2 {
		t.Errorf("coverage events %+v, want three, the second naming the first's file with its new edge and a corpus of 1", cov)
	}
}

// TestWarmInputShortest: a new worker's throwaway first run is of the
// shortest input (the first of equals), not of the first seed, which may be
// the slowest (image/gif's FuzzDecode: 8 s).
func TestWarmInputShortest(t *testing.T) {
	es := []*entry{{enc: []byte("a long first seed")}, {enc: []byte("ab")}, {enc: []byte("a long seed")}, {enc: []byte("cd")}}
	if got := warmInput(es); string(got) != "ab" {
		t.Errorf("warmInput = %q, want the first shortest, %q", got, "ab")
	}
	if got := warmInput(nil); got != nil {
		t.Errorf("warmInput of no inputs = %q, want nil", got)
	}
}

// TestSeedOf: a seed is named as go test names it, a testdata seed is its
// own reproducer, and a generated-corpus entry is known by its file's name
// (reported with its failure: event.Event.Entry); the zero input and a new
// input are neither.
func TestSeedOf(t *testing.T) {
	for _, c := range []struct {
		e    *entry
		want seedRef
	}{
		{&entry{path: "seed#3", seed: true}, seedRef{name: "seed#3"}},
		{&entry{path: "testdata/fuzz/FuzzX/abc", seed: true}, seedRef{name: "abc", path: "testdata/fuzz/FuzzX/abc"}},
		{&entry{path: "/cache/FuzzX/0123456789abcdef"}, seedRef{entry: "0123456789abcdef"}},
		{&entry{path: zeroPath, seed: true}, seedRef{}},
		{&entry{}, seedRef{}},
	} {
		if got := seedOf(c.e); got != c.want {
			t.Errorf("seedOf(%q, seed %v) = %+v, want %+v", c.e.path, c.e.seed, got, c.want)
		}
	}
}

// TestReproducerUnwritable: a failure whose reproducer cannot be written
// (testdata full, read-only or not a directory) stops the run with an error
// that shows the input and says where in the cache it is kept: the found
// bug was lost with the write.
func TestReproducerUnwritable(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	notDir := filepath.Join(dir, "FuzzFake") // a file where the reproducers go
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runFake(t, "bug", 20*time.Second, func(o *Options) {
		o.CorpusDir = notDir
		o.CacheDir = cache
	})
	if r.err == nil || !strings.Contains(r.err.Error(), "writing the reproducer") || !strings.Contains(r.err.Error(), "go test fuzz v1\n[]byte(") {
		t.Fatalf("Coordinate returned %v: want the write's error with the input", r.err)
	}
	_, after, ok := strings.Cut(r.err.Error(), "its input is kept at ")
	path, _, _ := strings.Cut(after, ",")
	if data, err := os.ReadFile(path); !ok || err != nil || !strings.HasPrefix(string(data), "go test fuzz v1\n") {
		t.Errorf("the input is not kept where the error says (%q): %v", path, err)
	}
}
