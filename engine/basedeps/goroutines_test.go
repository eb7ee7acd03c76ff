package basedeps

import (
	"os"
	"os/exec"
	"testing"
)

// aloneEnv runs TestGoroutineWatch itself, in the process it starts.
const aloneEnv = "FUZZBOX_TEST_GOROUTINE_WATCH_ALONE"

// TestGoroutineWatch: live goroutines beyond the binary's and the input's
// count from the liveWatches-th watch in a row; started ones beyond one per
// execution count past startedSlack.
func TestGoroutineWatch(t *testing.T) {
	if os.Getenv(aloneEnv) == "" {
		// The watch counts the process's goroutines, which another
		// test's ending in the middle of this one moved (a flaky "not
		// reported"): it runs in a process of its own.
		cmd := exec.Command(os.Args[0], "-test.run=^TestGoroutineWatch$", "-test.count=1")
		cmd.Env = append(os.Environ(), aloneEnv+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	var execs uint64
	w, ok := NewGoroutineWatch(func() uint64 { return execs }, 0)
	if !ok {
		t.Fatal("the runtime does not count the goroutines it starts")
	}
	if w.Own() {
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
	if w.Own() || w.Own() {
		t.Fatal("the input's goroutine taken for the code's own")
	}
	park()
	for i := 1; i < liveWatches; i++ {
		if w.Live() {
			t.Fatalf("%d watches over the live count reported", i)
		}
	}
	if !w.Live() {
		t.Fatalf("%d watches over the live count not reported", liveWatches)
	}
	if w.Started() {
		t.Fatal("goroutines started one per execution taken for the code's own")
	}
	for range startedSlack + 1 {
		done := make(chan bool)
		go func() { close(done) }()
		<-done
	}
	if !w.Started() {
		t.Fatalf("%d goroutines started beyond one per execution not reported", startedSlack+1)
	}
}
