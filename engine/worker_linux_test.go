package engine

import (
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// TestUnallocated reads /proc/self/maps lines: reservations without access
// and files' mappings are no allocated memory; anonymous mappings with
// access are.
func TestUnallocated(t *testing.T) {
	for line, want := range map[string]uint64{
		"7f0000000000-7f0100000000 ---p 00000000 00:00 0 ":                         1 << 32,
		"00400000-00600000 r-xp 00000000 08:01 1234   /tmp/x.test":                 2 << 20,
		"c000000000-c004000000 rw-p 00000000 00:00 0 ":                             0,
		"7ffd0000-7ffd1000 rw-p 00000000 00:00 0                          [stack]": 0,
		"garbage": 0,
	} {
		if got := unallocated([]byte(line)); got != want {
			t.Errorf("unallocated(%q) = %d, want %d", line, got, want)
		}
	}
	before := unallocatedBytes()
	m, err := syscall.Mmap(-1, 0, 1<<32, syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("no 4-GiB reservation here: %v", err)
	}
	after := unallocatedBytes()
	syscall.Munmap(m)
	if after-before < 1<<32 {
		t.Errorf("a 4-GiB reservation grew the unallocated bytes from %d to %d", before, after)
	}
}

// TestNoOOM: inputs that go test passes and that once were an oom here.
//   - reserve: 4 GiB of address space without access (a sandbox's guard
//     region, a memory-mapped database's map size), released before it
//     returns.
//   - bigdrop: a buffer larger than -rss_limit_mb, none of it touched,
//     dropped before it returns. The sampler saw it mapped while it ran and
//     panicked, or the exact check counted it before a collection freed it,
//     by chance, and its reproducer's replay passed as often as not. (A
//     worker that makes such a buffer again reuses the last one's pages,
//     which the runtime zeroes: resident memory, which the coordinator's
//     poll may see; a fresh worker's re-run does not, so it is flaky, never
//     written.)
func TestNoOOM(t *testing.T) {
	for _, mode := range []string{"reserve", "bigdrop"} {
		t.Run(mode, func(t *testing.T) {
			r := runFake(t, mode, 3*time.Second, func(o *Options) { o.RSSLimitMB, o.Parallel = 2048, 1 })
			if f := r.ofType(event.Failure); len(f) > 0 {
				t.Errorf("failures: %+v", f)
			}
			if e := r.ofType(event.InternalError); len(e) > 0 {
				t.Errorf("internal errors: %+v", e)
			}
		})
	}
}

// grownBytes is the fake "grow" mode's step: n bytes of resident memory,
// mapped outside the Go heap so that a race-instrumented worker starved of
// CPU still grows at each step (its heap allocation, with the race
// detector's shadow, took longer than the 500-ms timeout under load).
func grownBytes(n int) []byte {
	m, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_POPULATE)
	if err != nil {
		panic(err)
	}
	return m
}

// reserveAddressSpace reserves 4 GiB without access for 30 ms, 20 ms after
// it starts (the memory check has seen the execution running by then).
func reserveAddressSpace() {
	time.Sleep(20 * time.Millisecond)
	m, err := syscall.Mmap(-1, 0, 1<<32, syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return
	}
	time.Sleep(30 * time.Millisecond)
	syscall.Munmap(m)
}

// TestWorkersOutliveTheirStartersThread: while code under test in the
// coordinator's process ends threads (goroutines that exit locked to
// theirs), no worker is killed: Linux sends a worker's Pdeathsig when the
// thread that started it exits, and workers died "killed from outside".
func TestWorkersOutliveTheirStartersThread(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			done := make(chan struct{})
			go func() { runtime.LockOSThread(); close(done) }() // its thread exits with it
			<-done
		}
	}()
	r := runFake(t, "exitlong", 8*time.Second, func(o *Options) { o.KeepGoing, o.MinimizeDuration = true, time.Second })
	for _, e := range append(append(r.ofType(event.Warning), r.ofType(event.InternalError)...), r.ofType(event.Failure)...) {
		if strings.Contains(e.Message, "killed") || strings.Contains(e.Message, "keep dying") || e.Type == event.Failure && !strings.Contains(e.Message, "exit status 3") {
			t.Errorf("%s: %s", e.Type, firstLine(e.Message))
		}
	}
	if len(r.ofType(event.Failure)) == 0 {
		t.Errorf("no failure: the workers were not restarted (events %+v)", r.events)
	}
}

// TestNoGoroutineAfterRun: once a run has ended and its workers are gone,
// the coordinator's process has no goroutine of startWorker's left, as go
// test -fuzz has none: test mains that check for leaked goroutines after
// m.Run waited for it until -timeout (x/net's quic, tailscale/xnet's
// internal/quic) or would fail (goleak.VerifyTestMain).
func TestNoGoroutineAfterRun(t *testing.T) {
	r := runFake(t, "idle", time.Second, nil)
	if r.err != nil {
		t.Fatal(r.err)
	}
	// startWorker's goroutine has run its last line before the last
	// worker's exited channel closes, which the run waits for; it may
	// still be leaving (runtime.goexit, seen under -race), so the check
	// waits a little, as goleak does.
	var left []string
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		buf := make([]byte, 4<<20)
		buf = buf[:runtime.Stack(buf, true)]
		left = nil
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "fuzzbox/engine.") && !strings.Contains(g, "TestNoGoroutineAfterRun") && !strings.Contains(g, "engine.TestMain") {
				left = append(left, g)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, g := range left {
		t.Errorf("a goroutine of the engine outlives the run:\n%s", g)
	}
}
