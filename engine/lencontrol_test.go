package engine

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

func TestLenControl(t *testing.T) {
	q := newQueue(false)
	q.add(newEntry([]any{"0123456789", []byte("ab"), 7}, nil, "", true), nil)
	q.add(newEntry([]any{"xy", []byte("0123456789abcdef"), 1}, nil, "", true), nil)
	var l lenControl
	small, large := q.entries[0], newEntry([]any{string(make([]byte, 100)), []byte(nil), 0}, nil, "", false)

	// The limit starts at the corpus's longest value; a longer base input
	// keeps its own length (mutants never truncate it).
	if got := l.limit(q, small, 0); got != 16 {
		t.Fatalf("first limit = %d, want 16 (the longest value of the corpus)", got)
	}
	if got := l.limit(q, large, 0); got != 100 {
		t.Fatalf("limit for a 100-byte base = %d, want 100", got)
	}

	// It holds while new entries come often enough, and grows by ln(cap)
	// once lenControlRuns·ln(cap) executions pass without one.
	steps := int64(lenControlRuns * math.Log(16))
	if got := l.limit(q, small, steps); got != 16 {
		t.Fatalf("limit after %d executions = %d, want 16 still", steps, got)
	}
	if got := l.limit(q, small, steps+1); got != 16+int(math.Log(16)) {
		t.Fatalf("limit after %d executions = %d, want %d", steps+1, got, 16+int(math.Log(16)))
	}
	l.grew(10 * steps)
	if got := l.limit(q, small, 11*steps); got != 18 {
		t.Fatalf("limit right after a new entry = %d, want 18 (no growth)", got)
	}

	// A long stall grows it step by step, as often as the executions allow,
	// up to maxLenControl.
	if got := l.limit(q, small, 1<<40); got != maxLenControl {
		t.Fatalf("limit after a long stall = %d, want %d", got, maxLenControl)
	}
}

func TestLenControlSmallCorpus(t *testing.T) {
	q := newQueue(false)
	q.add(newEntry([]any{int64(3), true}, nil, "", true), nil)
	var l lenControl
	if got := l.limit(q, q.entries[0], 0); got != 4 {
		t.Fatalf("limit of a corpus without byte values = %d, want the minimum 4", got)
	}
}

// TestGrowthLimit: a short base's mutants grow to twice its length plus 4
// bytes at most, under the length control's limit, and further by as much
// as that limit rose since the corpus last grew; a long one's to the limit.
func TestGrowthLimit(t *testing.T) {
	for _, tc := range []struct{ limit, n, stall, want int }{
		{100, 0, 0, 4}, {100, 4, 0, 12}, {100, 30, 0, 64}, {100, 48, 0, 100}, {100, 60, 0, 100}, {100, 200, 0, 200}, {3, 0, 0, 3},
		{100, 1, 4, 10}, {100, 30, 50, 100}, {3, 0, 10, 3},
	} {
		if got := growthLimit(tc.limit, tc.n, tc.stall); got != tc.want {
			t.Errorf("growthLimit(%d, %d, %d) = %d, want %d", tc.limit, tc.n, tc.stall, got, tc.want)
		}
	}
}

// TestLenControlStall: the stall is how far the limit rose since the start
// or the last new entry.
func TestLenControlStall(t *testing.T) {
	q := newQueue(false)
	q.add(newEntry([]any{[]byte("a")}, nil, "", true), nil)
	var l lenControl
	if got := l.limit(q, q.entries[0], 0); got != 4 || l.stall() != 0 {
		t.Fatalf("at the start: limit %d, stall %d; want 4, 0", got, l.stall())
	}
	grown := l.limit(q, q.entries[0], 10_000)
	if grown <= 4 || l.stall() != grown-4 {
		t.Fatalf("after 10,000 executions without an entry: limit %d, stall %d; want the stall to be the limit's rise", grown, l.stall())
	}
	l.grew(10_000)
	if got := l.limit(q, q.entries[0], 10_001); got != grown || l.stall() != 0 {
		t.Fatalf("after a new entry: limit %d, stall %d; want %d, 0", got, l.stall(), grown)
	}
}

// TestStallGrowsShortInputs: where no coverage or comparison guides the way,
// mutants of the empty seed still reach the length a failure needs once the
// corpus stops growing; held to twice their base plus 4 bytes they never did.
func TestStallGrowsShortInputs(t *testing.T) {
	r := runFake(t, "long", 20*time.Second, func(o *Options) { o.Parallel = 1 })
	if f := r.ofType(event.Failure); len(f) != 1 {
		t.Fatalf("failures = %+v, want the long input's", f)
	}
}

// TestZeroInput: the baseline runs the zero input after the seeds, unless a
// seed is that input already; alone it is a seed.
func TestZeroInput(t *testing.T) {
	empty, err := corpus.Marshal([]byte{}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		seeds    []Seed
		cached   bool // the generated corpus holds the zero input
		wantZero int  // the zero input's index, -1 for none
	}{
		{[]Seed{{Path: "seed#0", Values: []any{[]byte("abc"), "x"}}, {Path: "seed#1", Values: []any{[]byte("d"), ""}}}, false, 2},
		{[]Seed{{Path: "seed#0", Values: []any{[]byte("abc"), "x"}}, {Path: "seed#1", Values: []any{[]byte{}, ""}}}, false, -1},
		{[]Seed{{Path: "seed#0", Values: []any{[]byte("abc"), "x"}}}, true, -1},
		{nil, false, 0},
		{[]Seed{{Path: "seed#0", Values: []any{[]byte("abc"), "x"}}}, false, -2}, // -2: a pruning run, none
	} {
		c, _ := fakeCoordinator(t, "", func(o *Options) {
			o.PruneOnly = tc.wantZero == -2
			o.Types = []reflect.Type{reflect.TypeOf([]byte(nil)), reflect.TypeOf("")}
			o.Seeds = tc.seeds
			o.CacheDir = t.TempDir()
			if tc.cached {
				if _, err := corpus.Write(o.CacheDir, empty); err != nil {
					t.Fatal(err)
				}
			}
		})
		es, err := c.loadInputs()
		if err != nil {
			t.Fatal(err)
		}
		zero := slices.IndexFunc(es, func(e *entry) bool { return e.path == zeroPath })
		if tc.wantZero == -2 {
			tc.wantZero = -1
		}
		if zero != tc.wantZero {
			t.Errorf("seeds %v: the zero input is entry %d of %d, want %d", tc.seeds, zero, len(es), tc.wantZero)
			continue
		}
		if zero >= 0 && (len(es[zero].vals[0].([]byte)) != 0 || es[zero].vals[1] != "" || es[zero].seed != (len(tc.seeds) == 0)) {
			t.Errorf("zero input %+v, want empty values, a seed only when there are no seeds", es[zero])
		}
	}
}

// TestInputsOnce: an input the seeds or the generated corpus hold twice
// runs once in the baseline, as under go test (128 f.Add calls over two
// values are two inputs); the seed stays, before a generated entry.
func TestInputsOnce(t *testing.T) {
	var seeds []Seed
	for i := range 6 {
		seeds = append(seeds, Seed{Path: fmt.Sprintf("seed#%d", i), Values: []any{[]byte{byte('a' + i%2)}}})
	}
	seeds = append(seeds, Seed{Path: "seed#6", Values: []any{[]byte(nil)}}, Seed{Path: "seed#7", Values: []any{[]byte{}}})
	c, _ := fakeCoordinator(t, "", func(o *Options) {
		o.Types = []reflect.Type{reflect.TypeOf([]byte(nil))}
		o.Seeds = seeds
		o.CacheDir = t.TempDir()
		for _, in := range []string{"b", "c"} {
			data, err := corpus.Marshal([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := corpus.Write(o.CacheDir, data); err != nil {
				t.Fatal(err)
			}
		}
	})
	es, err := c.loadInputs()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, fmt.Sprintf("%s=%q", filepath.Base(e.path), e.vals[0]))
	}
	want := []string{`seed#0="a"`, `seed#1="b"`, `seed#6=""`, `c="c"`}
	if len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || !strings.HasSuffix(got[3], `="c"`) {
		t.Errorf("baseline inputs %q, want %q (the generated one named by its hash)", got, want)
	}
	if ents, _ := os.ReadDir(c.opts.CacheDir); len(ents) != 1 || c.pruned != 1 {
		t.Errorf("the generated corpus has %d entries after %d pruned, want c alone (b is a seed's input)", len(ents), c.pruned)
	}
}

func TestCallDuration(t *testing.T) {
	q := newQueue(false)
	mk := func(d time.Duration) *entry {
		e := newEntry([]any{"x"}, nil, "", false)
		e.dur = d
		return e
	}
	unmeasured := mk(0)
	q.add(unmeasured, nil)
	if got := q.callDuration(unmeasured); got != fuzzCallDuration {
		t.Fatalf("no measured entries: %v, want %v", got, fuzzCallDuration)
	}
	for range 18 {
		q.add(mk(10*time.Microsecond), nil)
	}
	slow := mk(10 * time.Millisecond)
	q.add(slow, nil)
	// The average is (18·10µs + 10ms)/19 ≈ 536µs: the slow entry is 18.6
	// times that, the others far below it.
	for _, c := range []struct {
		e    *entry
		want time.Duration
	}{
		{q.entries[1], fuzzCallDuration},
		{unmeasured, fuzzCallDuration},
		{slow, fuzzCallDuration / 10},
		{mk(1500 * time.Microsecond), fuzzCallDuration / 2},    // 2.8x
		{mk(3 * time.Millisecond), fuzzCallDuration / 4},       // 5.6x
		{mk(800 * time.Microsecond), fuzzCallDuration * 3 / 4}, // 1.5x
	} {
		if got := q.callDuration(c.e); got != c.want {
			t.Errorf("entry of %v: call of %v, want %v", c.e.dur, got, c.want)
		}
	}
}

// TestResizeAboveLenControl: a resize substitution (a compared length) is
// not held back by the length control's limit, only by resizeLen; other
// substitutions are.
func TestResizeAboveLenControl(t *testing.T) {
	m := newMutator(1, 20)
	m.resizeLen = 1000
	vals := []any{"put:alpha"}
	if !m.applyBounded(vals, cmpSub{arg: 0, at: atResize, lenFrom: 9, lenTo: 64}) || byteLen(vals[0]) != 64 {
		t.Fatalf("resize to 64 with maxLen 20, resizeLen 1000: got %q", vals[0])
	}
	if m.applyBounded(vals, cmpSub{arg: 0, at: atResize, lenFrom: 64, lenTo: 1001}) {
		t.Fatalf("resize past resizeLen applied")
	}
	vals = []any{"put:alpha"}
	if m.applyBounded(vals, cmpSub{arg: 0, at: 0, from: []byte("put"), to: []byte(strings.Repeat("x", 30))}) {
		t.Fatalf("a 39-byte replacement applied with maxLen 20: %q", vals[0])
	}
}

// TestResizeLenFollowsLenControl: a resize may reach resizeFloor at once
// and the length control's limit above it, never past the shared memory.
func TestResizeLenFollowsLenControl(t *testing.T) {
	mem, err := ipc.CreateMem(1<<16, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	w := &workerServer{mem: mem}
	memMax := w.maxLen(0)
	for _, c := range []struct{ maxLen, want int }{
		{20, resizeFloor},
		{resizeFloor + 1000, resizeFloor + 1000},
		{1 << 20, memMax},
	} {
		if got := w.resizeLen(c.maxLen); got != c.want {
			t.Errorf("resizeLen(%d) = %d, want %d", c.maxLen, got, c.want)
		}
	}
	if memMax <= resizeFloor+1000 {
		t.Fatalf("shared memory bound %d: the test needs more", memMax)
	}
}

// TestLeaveOutInputs: the inputs Options.LeaveOut names are not run: an f.Add
// seed by go test's name for it, a testdata seed and a generated entry by
// their file's name; the others stay.
func TestLeaveOutInputs(t *testing.T) {
	gen, err := corpus.Marshal([]byte("generated"))
	if err != nil {
		t.Fatal(err)
	}
	file, err := corpus.Marshal([]byte("file"))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := fakeCoordinator(t, "", func(o *Options) {
		o.Types = []reflect.Type{reflect.TypeOf([]byte(nil))}
		o.Seeds = []Seed{
			{Path: "seed#0", Values: []any{[]byte("slow")}},
			{Path: "seed#1", Values: []any{[]byte("fast")}},
			{Path: "testdata/fuzz/FuzzX/slowfile", Data: file},
		}
		o.CacheDir = t.TempDir()
		if _, err := corpus.Write(o.CacheDir, gen); err != nil {
			t.Fatal(err)
		}
		o.LeaveOut = []string{"seed#0", "slowfile", corpus.Name(gen)}
	})
	es, err := c.loadInputs()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, filepath.Base(e.path))
	}
	if !slices.Equal(got, []string{"seed#1", zeroPath}) {
		t.Errorf("baseline inputs %q, want seed#1 and the zero input", got)
	}
}

// TestImportResetsLenControl: an entry imported from a sync directory grows
// the corpus as the instance's own finds do, so the length control's plateau
// starts again; an instance living on imports saw its limit rise.
func TestImportResetsLenControl(t *testing.T) {
	q := newQueue(false)
	q.add(newEntry([]any{[]byte("a")}, nil, "", true), nil)
	c := &coordinator{setup: &setup{rep: &reporter{}}, corpus: q}
	c.lens.limit(q, q.entries[0], 0)
	c.execs = 10_000
	grown := c.lens.limit(q, q.entries[0], c.execs)
	c.addImported(newEntry([]any{[]byte("b")}, nil, "", false), 1, true)
	if got := c.lens.limit(q, q.entries[0], c.execs+300); got != grown || c.lens.stall() != 0 {
		t.Fatalf("300 executions after an import: limit %d, stall %d; want %d, 0", got, c.lens.stall(), grown)
	}
}
