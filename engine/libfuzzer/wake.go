package libfuzzer

// Thread wake-ups held back while the code under test has no goroutines of
// its own.
//
// The runtime of these binaries makes the wake-ups of newproc and ready only
// while fuzzbox_nowake is clear (driver/build/wakegate.go says why). serve
// sets it while it runs inputs, and clears it for good once the code under
// test is seen starting goroutines of its own (basedeps.GoroutineWatch, as
// fuzzbox's workers go back to every processor then: engine/procs.go), so
// that those run in parallel, as under go test. Code whose goroutines are
// alive before the first input (started at package initialization, or by
// the fuzz test before f.Fuzz) keeps the wake-ups from the start. serve
// clears it too while it sleeps for the engine's next input, so that the
// engine's thread, which wakes it, has another thread take it up.

/*
#include <stdint.h>

uint8_t fuzzbox_nowake;

// The runtime reads fuzzbox_nowake on other threads: Go sets and reads it
// through these (atomically, out of the race detector's sight).
static void fuzzbox_set_nowake(uint8_t v) { __atomic_store_n(&fuzzbox_nowake, v, __ATOMIC_RELAXED); }
static uint8_t fuzzbox_get_nowake(void) { return __atomic_load_n(&fuzzbox_nowake, __ATOMIC_RELAXED); }
*/
import "C"

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/basedeps"
)

// startedEvery is how many inputs serve runs between two looks at the
// goroutines the process started (basedeps.GoroutineWatch.Started, which
// reads runtime/metrics: between inputs only).
const startedEvery = 64

// A wakeGate is serve's side of fuzzbox_nowake.
type wakeGate struct {
	execs atomic.Uint64            // inputs begun
	watch *basedeps.GoroutineWatch // nil when open from the start

	mu   sync.Mutex  // orders the writes of open and fuzzbox_nowake
	open atomic.Bool // the code under test has goroutines: wake-ups as usual, for good
}

// newWakeGate returns serve's gate, open when the code under test has
// goroutines before the first input, or the runtime does not count the
// goroutines it starts; otherwise it starts the watch's goroutine. It must be
// called before the first input.
func newWakeGate() *wakeGate {
	g := &wakeGate{}
	if codeGoroutine(allStacks()) != "" {
		g.open.Store(true)
		return g
	}
	w, ok := basedeps.NewGoroutineWatch(g.execs.Load, 1)
	if !ok {
		g.open.Store(true)
		return g
	}
	g.watch = w
	go g.watchLive()
	return g
}

// hold holds the wake-ups back unless the gate is open for good.
func (g *wakeGate) hold() {
	g.mu.Lock()
	if !g.open.Load() {
		C.fuzzbox_set_nowake(1)
	}
	g.mu.Unlock()
}

// release lets the wake-ups through until the next hold.
func (g *wakeGate) release() {
	g.mu.Lock()
	C.fuzzbox_set_nowake(0)
	g.mu.Unlock()
}

// begin counts an input about to run; every startedEvery inputs it first
// looks at the goroutines the process started.
func (g *wakeGate) begin() {
	if n := g.execs.Load(); n%startedEvery == 0 && n > 0 && !g.open.Load() && g.watch.Started() {
		g.openForGood()
	}
	g.execs.Add(1)
}

// openForGood lets the wake-ups through from now on, and makes one: the
// goroutines the code under test queued meanwhile get the idle processor.
func (g *wakeGate) openForGood() {
	g.mu.Lock()
	was := g.open.Swap(true)
	C.fuzzbox_set_nowake(0)
	g.mu.Unlock()
	if !was {
		go func() {}()
	}
}

// watchLive opens the gate once the watch sees goroutines of the code
// under test alive beside the inputs. It runs beside them: it uses only
// packages compiled without coverage instrumentation (the runtime's, the
// libFuzzer runtime's own, sync and time), as watchHangs does.
func (g *wakeGate) watchLive() {
	tick := time.NewTicker(basedeps.WatchEvery)
	defer tick.Stop()
	for range tick.C {
		if g.open.Load() {
			return
		}
		if g.watch.Live() {
			g.openForGood()
			return
		}
	}
}

// codeGoroutine returns the function that started a goroutine of stacks
// (runtime.Stack's, of every goroutine) that is neither the runtime's nor
// testing's nor fuzzbox's, or "" if none did.
func codeGoroutine(stacks []byte) string {
	for _, line := range strings.Split(string(stacks), "\n") {
		fn, ok := strings.CutPrefix(line, "created by ")
		if !ok {
			continue
		}
		fn, _, _ = strings.Cut(fn, " in goroutine ")
		if !ownCreator(fn) {
			return fn
		}
	}
	return ""
}

// ownCreator reports whether fn, the function that started a goroutine, is
// one the binary has before its first input: the runtime's, testing's,
// fuzzbox's, os/signal's.
func ownCreator(fn string) bool {
	for _, p := range []string{"runtime.", "runtime/", "testing.", "github.com/fuzzbox/fuzzbox/", "os/signal."} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// heldBack reports whether fuzzbox_nowake is set, for tests.
func heldBack() bool { return C.fuzzbox_get_nowake() != 0 }
