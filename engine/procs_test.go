package engine

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/basedeps"
)

// procsProbeEnv makes the test binary act as a worker for
// oneProcUntilGoroutines (TestMain): it runs executions that start one
// goroutine each, as testing's do, prints GOMAXPROCS, runs executions whose
// code starts goroutines of its own (the variable's value says how), and
// prints GOMAXPROCS again.
const procsProbeEnv = "FUZZBOX_TEST_PROCS_PROBE"

func procsProbe(mode string) {
	var execs atomic.Uint64
	work := make(chan func())
	if mode == "pool" { // a goroutine of the code, alive before the first input
		own := workerCreator
		workerCreator = func(fn string) bool { // the probe is in engine's tests
			return own(fn) && !strings.HasPrefix(fn, "github.com/fuzzbox/fuzzbox/engine.procsProbe")
		}
		go func() {
			for fn := range work {
				fn()
			}
		}()
	}
	oneProcUntilGoroutines(execs.Load)
	run := func(fn func()) {
		execs.Add(1)
		done := make(chan bool)
		go func() { fn(); close(done) }()
		<-done
	}
	for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
		run(func() {})
	}
	fmt.Println(runtime.GOMAXPROCS(0))
	switch mode {
	case "spinning": // goroutines that never block, alive during one execution
		run(func() {
			var stop atomic.Bool
			for range 2 {
				go func() {
					for !stop.Load() {
					}
				}()
			}
			for i := 0; i < 300 && runtime.GOMAXPROCS(0) == 1; i++ {
				time.Sleep(10 * time.Millisecond)
			}
			stop.Store(true)
		})
	case "pool": // executions hand work to the goroutine started before them
		for range 20 { // past the watch's slack of started goroutines (basedeps)
			run(func() {
				done := make(chan bool)
				work <- func() { close(done) }
				<-done
			})
		}
	case "short": // one goroutine per execution, ended before it returns
		for range 20 { // past the watch's slack of started goroutines (basedeps)
			run(func() {
				var wg sync.WaitGroup
				wg.Go(func() {})
				wg.Wait()
			})
		}
	}
	if mode == "spinning" || mode == "short" {
		// The watch may run late on a loaded machine (or under qemu):
		// wait up to 3 s for it rather than a fixed few intervals.
		for i := 0; i < 300 && runtime.GOMAXPROCS(0) == 1; i++ {
			time.Sleep(basedeps.WatchEvery)
		}
	}
	fmt.Println(runtime.GOMAXPROCS(0))
}

// TestOneProcUntilGoroutines: a worker whose executions start only
// testing's goroutine runs on one processor; one whose code starts
// goroutines, alive or short-lived, goes back to the default; a GOMAXPROCS
// the user set stays, and so does the default in a re-run's worker.
func TestOneProcUntilGoroutines(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one processor: GOMAXPROCS is 1 anyway")
	}
	env := slices.DeleteFunc(os.Environ(), func(s string) bool { return strings.HasPrefix(s, "GOMAXPROCS=") })
	probe := func(mode string, extra ...string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(append(slices.Clip(env), procsProbeEnv+"="+mode), extra...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("probe %s: %v", mode, err)
		}
		return strings.Join(strings.Fields(string(out)), " ")
	}
	def := fmt.Sprint(runtime.NumCPU())
	for mode, want := range map[string]string{
		"none":     "1 1",
		"spinning": "1 " + def,
		"short":    "1 " + def,
		"pool":     def + " " + def,
	} {
		// A switch without cause costs speed, not correctness, and a loaded
		// machine can make one: "none" gets three tries.
		got := probe(mode)
		for try := 1; try < 3 && mode == "none" && got != want; try++ {
			got = probe(mode)
		}
		if got != want {
			t.Errorf("%s: GOMAXPROCS before and after = %s, want %s", mode, got, want)
		}
	}
	if got := probe("spinning", "GOMAXPROCS=3"); got != "3 3" {
		t.Errorf("user's GOMAXPROCS=3: GOMAXPROCS before and after = %s, want 3 3", got)
	}
	// A worker that re-runs a failure keeps every processor from the start
	// (a concurrent map write the fuzzing worker saw was called flaky).
	if got, want := probe("none", allProcsEnv+"=1"), def+" "+def; got != want {
		t.Errorf("with %s: GOMAXPROCS before and after = %s, want %s", allProcsEnv, got, want)
	}
}

// TestCodeGoroutine: a goroutine is the code's unless its creator is one
// of the worker's own.
func TestCodeGoroutine(t *testing.T) {
	stop, before := make(chan bool), runtime.NumGoroutine()
	defer func() { // gone before the next test counts goroutines (TestProcsWatcher)
		close(stop)
		for i := 0; i < 1000 && runtime.NumGoroutine() > before; i++ {
			time.Sleep(time.Millisecond)
		}
	}()
	go func() { <-stop }()
	gs := parseGoroutines(allStacks()())
	if got := codeGoroutine(gs, func(string) bool { return false }); got == "" {
		t.Errorf("codeGoroutine with no creator the worker's own = \"\" with this test's goroutine alive")
	}
	if got := codeGoroutine(gs, func(string) bool { return true }); got != "" {
		t.Errorf("codeGoroutine with every creator the worker's own = %q", got)
	}
	if got := codeGoroutine(gs, workerCreator); strings.Contains(got, "TestCodeGoroutine") {
		t.Errorf("codeGoroutine(workerCreator) = %q, a function of fuzzbox's own module", got)
	}
	for _, fn := range []string{"runtime/pprof.profileWriter", "os/signal.Notify.func1", "main.main", "testing.(*F).Fuzz.func1"} {
		if !workerCreator(fn) {
			t.Errorf("workerCreator(%q) = false, want the worker's own", fn)
		}
	}
	if workerCreator("net/http/httptest.(*Server).goServe") || workerCreator("example.com/pool.init.0") {
		t.Error("workerCreator takes a server's or a package's goroutine for the worker's own")
	}
}
