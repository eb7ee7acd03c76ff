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
		for range 2 * procsSlack {
			run(func() {
				done := make(chan bool)
				work <- func() { close(done) }
				<-done
			})
		}
	case "short": // one goroutine per execution, ended before it returns
		for range 2 * procsSlack {
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
			time.Sleep(procsWatch)
		}
	}
	fmt.Println(runtime.GOMAXPROCS(0))
}

// TestOneProcUntilGoroutines: a worker whose executions start only
// testing's goroutine runs on one processor; one whose code starts
// goroutines, alive or short-lived, goes back to the default; a GOMAXPROCS
// the user set stays.
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

// procsAloneEnv runs TestProcsWatcher itself, in the process it starts.
const procsAloneEnv = "FUZZBOX_TEST_PROCS_ALONE"

// TestProcsWatcher: live goroutines beyond the worker's and the input's
// count from the second watch in a row; started ones beyond one per
// execution count past procsSlack.
func TestProcsWatcher(t *testing.T) {
	if os.Getenv(procsAloneEnv) == "" {
		// The watcher counts the process's goroutines, which another
		// test's ending in the middle of this one moved (a flaky "not
		// reported"): it runs in a process of its own.
		cmd := exec.Command(os.Args[0], "-test.run=^TestProcsWatcher$", "-test.count=1")
		cmd.Env = append(os.Environ(), procsAloneEnv+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	var execs uint64
	w := procsWatcher{live: runtime.NumGoroutine(), execs: func() uint64 { return execs }}
	w.created, _ = goroutinesCreated()
	if w.own() {
		t.Fatal("own goroutines reported with none started")
	}
	block := make(chan bool)
	defer close(block)
	park := func() {
		started := make(chan bool)
		go func() { close(started); <-block }()
		<-started
		execs++ // counted as an execution's goroutine
	}
	park() // the input's goroutine
	if w.own() || w.own() {
		t.Fatal("the input's goroutine taken for the code's own")
	}
	park()
	for i := 1; i < procsOver; i++ {
		if w.own() {
			t.Fatalf("%d watches over the live count reported", i)
		}
	}
	if !w.own() {
		t.Fatalf("%d watches over the live count not reported", procsOver)
	}
}
