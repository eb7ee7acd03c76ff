package engine

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/event"
)

// g writes one goroutine of a dump as runtime.Stack does: its header with
// state, one frame, and the "created by" lines when creator is not "".
func g(id int, state, fn, creator string) string {
	s := fmt.Sprintf("goroutine %d [%s]:\n%s(...)\n\t/src/x/x.go:%d +0x1d\n", id, state, fn, 10+id)
	if creator != "" {
		s += fmt.Sprintf("created by %s in goroutine 1\n\t/src/x/x.go:7 +0x3f\n", creator)
	}
	return s
}

func dumpOf(gs ...string) string { return strings.Join(gs, "\n") }

func TestParseGoroutines(t *testing.T) {
	dump := dumpOf(
		"goroutine 1 [running]:\nmain.main()\n\t/src/m.go:3 +0x1\n",
		"goroutine 7 [chan send, 2 minutes]:\nexample.com/x.f.func1()\n\t/src/x/x.go:12 +0x25\ncreated by example.com/x.f in goroutine 6\n\t/src/x/x.go:11 +0x3f\n",
		"goroutine 9 [sync.Mutex.Lock]:\nsync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)\n\t/go/src/runtime/sema.go:95 +0x25\ncreated by example.com/x.g\n\t/src/x/y.go:20 +0x3f\n",
		"not a goroutine",
	)
	gs := parseGoroutines(dump)
	if len(gs) != 3 {
		t.Fatalf("parsed %d goroutines, want 3: %+v", len(gs), gs)
	}
	want := []struct {
		id             uint64
		state, creator string
		site           string
	}{
		{1, "running", "", ""},
		{7, "chan send", "example.com/x.f", "example.com/x.f at /src/x/x.go:11"},
		{9, "sync.Mutex.Lock", "example.com/x.g", "example.com/x.g at /src/x/y.go:20"}, // before Go 1.21: no "in goroutine N"
	}
	for i, w := range want {
		if got := gs[i]; got.id != w.id || got.state != w.state || got.creator != w.creator || got.site != w.site {
			t.Errorf("goroutine %d = {%d %q %q %q}, want %+v", i, got.id, got.state, got.creator, got.site, w)
		}
	}
	if !strings.HasPrefix(gs[1].text, "goroutine 7 [chan send, 2 minutes]:") || !strings.HasSuffix(gs[1].text, "+0x3f") {
		t.Errorf("text of goroutine 7 = %q", gs[1].text)
	}
}

func TestLeakCreator(t *testing.T) {
	tests := []struct {
		fn, pkg string
		want    bool
	}{
		{"example.com/x.f", "example.com/x", true},
		{"example.com/x_test.FuzzX.func1", "example.com/x", true},
		{"github.com/dep/pool.(*Pool).grow", "example.com/x", true}, // a dependency is code under test too
		{"myproj/internal/pool.New", "myproj/parser", true},         // a module path without a dot
		{"net/http.(*Server).Serve", "example.com/x", false},        // the standard library
		{"time.goFunc", "example.com/x", false},
		{"os/signal.Notify.func1", "", false},
		{"testing.(*T).Run", "example.com/x", false},
		{"testing.(*F).Fuzz.func1", "example.com/x", false},
		{"runtime.gcenable", "example.com/x", false},
		{"github.com/fuzzbox/fuzzbox/engine/basedeps.StackBallast", "example.com/x", false}, // the worker's own
		{"github.com/fuzzbox/fuzzbox/engine.dumpOnQuit", "example.com/x", false},
		{"github.com/fuzzbox/fuzzbox/engine.TestX.func1", "github.com/fuzzbox/fuzzbox/engine", true}, // fuzzbox fuzzed itself
		{"archive/tar.f", "archive/tar", true},                                                       // the standard library fuzzed itself
		{"", "example.com/x", false},
	}
	for _, tt := range tests {
		if got := leakCreator(tt.fn, tt.pkg); got != tt.want {
			t.Errorf("leakCreator(%q, %q) = %v, want %v", tt.fn, tt.pkg, got, tt.want)
		}
	}
}

func TestLeakCandidates(t *testing.T) {
	all := parseGoroutines(dumpOf(
		g(1, "running", "main.main", ""),
		g(2, "chan receive", "example.com/x.old", "example.com/x.start"), // known: started earlier
		g(3, "chan send", "example.com/x.f.func1", "example.com/x.f"),
		g(4, "select", "example.com/x.f.func2", "example.com/x.f"),
		g(5, "sleep", "time.Sleep", "example.com/x.f"),
		g(6, "syscall", "syscall.Syscall", "example.com/x.f"),
		g(7, "IO wait", "internal/poll.runtime_pollWait", "example.com/x.f"),
		g(8, "chan receive", "net/http.(*persistConn).readLoop", "net/http.(*Transport).dialConn"),
		g(9, "chan receive", "testing.tRunner", "testing.(*T).Run"),
		g(10, "runnable", "example.com/x.f.func3", "example.com/x.f"), // not blocked yet: maybe it will be
		g(11, "chan receive", "github.com/fuzzbox/fuzzbox/engine/basedeps.ballast", "github.com/fuzzbox/fuzzbox/engine/basedeps.StackBallast"),
	))
	known := map[uint64]bool{1: true, 2: true}
	var ids []uint64
	for _, c := range leakCandidates(all, known, "example.com/x") {
		ids = append(ids, c.id)
	}
	if fmt.Sprint(ids) != "[3 4 10]" {
		t.Errorf("candidates %v, want [3 4 10]", ids)
	}
}

// fakeStacks plays a worker's goroutines: each run of the input (and the
// first execution, before check) adds what start returns; dumps show them.
type fakeStacks struct {
	live   []string
	nextID int
}

func (f *fakeStacks) add(state, creator string) {
	f.nextID++
	f.live = append(f.live, g(f.nextID, state, "example.com/x.worker", creator))
}

func (f *fakeStacks) stacks() string { return dumpOf(f.live...) }

// TestLeakConfirm: what the check reports after an execution, for inputs
// whose runs leave goroutines in different ways.
func TestLeakConfirm(t *testing.T) {
	const site = "example.com/x.Serve"
	tests := []struct {
		desc  string
		run   func(f *fakeStacks, i int) // i: 0 for the execution, 1 and 2 for the re-runs
		grace func(f *fakeStacks)        // what happens during the grace period
		leak  bool
	}{
		{desc: "blocked on a send after every run", leak: true,
			run: func(f *fakeStacks, i int) { f.add("chan send", site) }},
		{desc: "runnable at first, blocked after the grace period", leak: true,
			run: func(f *fakeStacks, i int) { f.add("runnable", site) },
			grace: func(f *fakeStacks) {
				for i, g := range f.live {
					f.live[i] = strings.Replace(g, "[runnable]", "[chan send]", 1)
				}
			}},
		{desc: "started once by the first execution (a sync.Once background goroutine)",
			run: func(f *fakeStacks, i int) {
				if i == 0 {
					f.add("select", site)
				}
			}},
		{desc: "sleeping", run: func(f *fakeStacks, i int) { f.add("sleep", site) }},
		{desc: "started by the standard library", run: func(f *fakeStacks, i int) { f.add("chan receive", "net/http.(*Transport).dialConn") }},
		{desc: "ended during the grace period",
			run:   func(f *fakeStacks, i int) { f.add("chan receive", site) },
			grace: func(f *fakeStacks) { f.live = f.live[:1] }},
		{desc: "blocked at another place on each run",
			run: func(f *fakeStacks, i int) { f.add("chan send", fmt.Sprintf("example.com/x.h%d", i)) }},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			f := &fakeStacks{}
			f.add("running", "") // the worker's serving goroutine
			lc := startLeakChecker("example.com/x", f.stacks, func(time.Duration) {
				if tt.grace != nil {
					tt.grace(f)
				}
			})
			runs := 0
			tt.run(f, runs)
			msg, _, _ := lc.confirm(func() error { runs++; tt.run(f, runs); return nil })
			if got := msg != ""; got != tt.leak {
				t.Fatalf("leak reported: %v, want %v\n%s", got, tt.leak, msg)
			}
			if !tt.leak {
				return
			}
			if runs != leakRuns-1 {
				t.Errorf("the input ran %d more times, want %d", runs, leakRuns-1)
			}
			if failureKind(msg) != KindLeak || !strings.Contains(msg, "(chan send)") || !strings.Contains(msg, "created by "+site) {
				t.Errorf("message does not report a leak of a goroutine blocked on a send, created by %s:\n%s", site, msg)
			}
			if key := failureKey(KindLeak, msg); key != site+" at /src/x/x.go:7" {
				t.Errorf("failureKey = %q, want the creation site", key)
			}
		})
	}
}

// TestLeakCheckerLive runs the check on this process's real goroutines:
// what runtime.Stack prints for blocked goroutines started by the code under
// test (here the engine's test package itself).
func TestLeakCheckerLive(t *testing.T) {
	const pkg = "github.com/fuzzbox/fuzzbox/engine"
	var release []chan int
	defer func() {
		for _, c := range release {
			<-c
		}
	}()
	var once sync.Once
	var held sync.Mutex // locked for the test: each goroutine that locks it waits
	held.Lock()
	tests := []struct {
		desc  string
		input func()
		want  string // in the message; "" for no leak
	}{
		{"a send nobody receives", func() {
			c := make(chan int)
			release = append(release, c)
			go func() { c <- 1 }()
		}, "(chan send)"},
		{"a lock never unlocked", func() {
			go func() { held.Lock(); held.Unlock() }()
		}, "(sync.Mutex.Lock)"},
		{"a background goroutine started once", func() {
			once.Do(func() {
				c := make(chan int)
				release = append(release, c)
				go func() { c <- 1 }()
			})
		}, ""},
		{"a goroutine that sleeps", func() { go time.Sleep(2 * time.Second) }, ""},
		{"a janitor a cleanup stops (go-cache, fasthttp's FS cache)", func() {
			stop := make(chan struct{})
			type cache struct{ _ [16]byte }
			c := new(cache)
			runtime.AddCleanup(c, func(stop chan struct{}) { close(stop) }, stop)
			go func() {
				t := time.NewTicker(time.Hour)
				defer t.Stop()
				select {
				case <-t.C:
				case <-stop:
				}
			}()
		}, ""},
		{"a wait a timer ends (a backoff)", func() {
			go func() {
				select {
				case <-make(chan int):
				case <-time.After(300 * time.Millisecond):
				}
			}()
		}, ""},
		{"goroutines that end", func() {
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done() }()
			wg.Wait()
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			lc := startLeakChecker(pkg, allStacks(), time.Sleep)
			before := runtime.NumGoroutine()
			tt.input()
			msg := lc.check(before, 0, func() error { tt.input(); return nil })
			if tt.want == "" && msg != "" {
				t.Fatalf("reported a leak:\n%s", msg)
			}
			if tt.want != "" && (!strings.HasPrefix(msg, leakHeader) || !strings.Contains(msg, tt.want) || !strings.Contains(msg, "created by "+pkg+".TestLeakCheckerLive")) {
				t.Fatalf("want a leak %s created by this test, got:\n%s", tt.want, msg)
			}
		})
	}
	held.Unlock() // the blocked lockers take it in turn
}

// TestLeakFailure: the coordinator reports an input that leaks a goroutine
// as a failure of kind leak, confirmed in a fresh worker and minimized to
// (or found as) the 3 bytes that leak; with NoLeaks it is no failure.
func TestLeakFailure(t *testing.T) {
	// The fake worker's goroutines are created by this package: it is the
	// package under test here, or they would be fuzzbox's own.
	const pkg = "github.com/fuzzbox/fuzzbox/engine"
	r := runFake(t, "leak", 20*time.Second, func(o *Options) { o.Package, o.MinimizeDuration = pkg, 10*time.Second })
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindLeak {
		t.Fatalf("failures = %+v, want one of kind leak", fails)
	}
	f := fails[0]
	if f.Reproduced != 1 || !strings.HasPrefix(f.Message, leakHeader) || !strings.Contains(f.Message, "created by "+pkg+".fakeWorker.func") {
		t.Errorf("failure %+v: want a leak confirmed in a fresh worker, created by the fake worker", f)
	}
	if !strings.Contains(f.Message, "go test does not fail on a leak; fix it, or fuzz with -leaks=false") {
		t.Errorf("leak report %q does not say go test passes it, nor how to turn the check off", f.Message)
	}
	data, err := os.ReadFile(f.Reproducer)
	if err != nil {
		t.Fatal(err)
	}
	// "no" is right when the input found was 3 bytes already (the growth
	// limit keeps short mutants short); never cut short.
	if vals, err := corpus.Unmarshal(data); err != nil || len(vals) != 1 || len(vals[0].([]byte)) != 3 || f.Minimized == minimizedCutShort {
		t.Errorf("reproducer %q (minimized %q): want an input of exactly 3 bytes, minimized (%v)", data, f.Minimized, err)
	}
	off := runFake(t, "leak", 2*time.Second, func(o *Options) { o.Package, o.NoLeaks = pkg, true })
	if fails := off.ofType(event.Failure); len(fails) != 0 || off.err != nil {
		t.Errorf("with NoLeaks: failures %+v, error %v; want none", fails, off.err)
	}
}

// TestLeakBackoff: checks that find nothing make the next ones rarer, less
// so when they cost only a dump than when they re-ran the input; a leak
// found resets it.
func TestLeakBackoff(t *testing.T) {
	f := &fakeStacks{}
	f.add("running", "")
	dumps := 0
	stacks := func() string { dumps++; return f.stacks() }
	lc := startLeakChecker("example.com/x", stacks, func(time.Duration) {})
	checks := func(n int, run func()) int {
		dumps = 0
		for range n {
			run()
			lc.check(-1, 0, func() error { run(); return nil }) // -1: more goroutines than before, always
		}
		return dumps
	}
	// Nothing new: a dump at checks 1, 3, 6, 11, 20, 37, 70 (skipping 1, 2,
	// 4, ... 64 checks after each), then at every 65th: 135, 200, 265.
	if got := checks(300, func() {}); got != 10 {
		t.Errorf("300 checks without candidates took %d dumps, want 10", got)
	}
	lc.skip, lc.penalty = 0, 0
	// A goroutine left by the first run only: re-runs each time, skipping up to 1024.
	first := true
	once := func() {
		if first {
			f.add("chan receive", "example.com/x.cache")
		}
		first = false
	}
	checks(1, once)
	if lc.penalty != 1 || lc.skip != 1 {
		t.Errorf("after re-runs without a leak: penalty %d, skip %d; want 1, 1", lc.penalty, lc.skip)
	}
	lc.penalty = 512
	first = true
	checks(2, once) // the first check is skipped
	if lc.penalty != 1024 {
		t.Errorf("penalty after re-runs without a leak = %d, want %d", lc.penalty, leakMaxSkip)
	}
	lc.skip = 0
	if checks(1, func() { f.add("chan send", "example.com/x.Serve") }); lc.penalty != 0 || lc.skip != 0 {
		t.Errorf("after a leak: penalty %d, skip %d; want 0, 0", lc.penalty, lc.skip)
	}
}

// TestLeakKnownNotConfirmedAgain: in a -keepgoing fuzz call, an execution
// that leaves goroutines making a leak the run has recorded is reported as
// that leak from the first dump, without the re-runs and the grace period,
// and the checks after it thin out; a leak of another signature is still
// confirmed in full.
func TestLeakKnownNotConfirmedAgain(t *testing.T) {
	const pkg = "github.com/fuzzbox/fuzzbox/engine"
	var release []chan int
	var held sync.Mutex
	held.Lock()
	defer func() {
		held.Unlock()
		for _, c := range release {
			<-c
		}
	}()
	send := func() {
		c := make(chan int)
		release = append(release, c)
		go func() { c <- 1 }()
	}
	lock := func() { go func() { held.Lock(); held.Unlock() }() }
	sleeps := 0
	lc := startLeakChecker(pkg, allStacks(), func(d time.Duration) { sleeps++; time.Sleep(d) })
	check := func(input func()) (msg string, reruns int) {
		before := runtime.NumGoroutine()
		input()
		msg = lc.check(before, 0, func() error { reruns++; input(); return nil })
		return msg, reruns
	}

	full := 1 // the grace period, then the waits for the goroutines to end by themselves
	for w := leakGrace; w <= leakMaxPatience; w *= 2 {
		full++
	}
	first, reruns := check(send)
	if failureKind(first) != KindLeak || reruns != leakRuns-1 || sleeps != full {
		t.Fatalf("first leak: %d re-runs, %d grace periods, message:\n%s", reruns, sleeps, first)
	}
	sig := knownKeysOf(first).sig
	lc.isKnown = func(msg string) bool { return knownKeysOf(msg).sig == sig }

	again, reruns := check(send)
	if got := knownKeysOf(again).sig; got != sig || reruns != 0 || sleeps != full {
		t.Fatalf("known leak: signature %q (want %q), %d re-runs, %d grace periods; want none", got, sig, reruns, sleeps)
	}
	if lc.skip != 1 {
		t.Errorf("after a known leak: skip %d, want 1 (checks thin out as after a fruitless dump)", lc.skip)
	}

	lc.skip = 0
	other, reruns := check(lock)
	if !strings.Contains(other, "(sync.Mutex.Lock)") || reruns != leakRuns-1 || sleeps != 2*full {
		t.Errorf("another leak: %d re-runs, %d grace periods, want it confirmed in full:\n%s", reruns, sleeps, other)
	}
}
