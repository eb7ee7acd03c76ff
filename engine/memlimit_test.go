package engine

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

func TestTuneGC(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	tuneGC(0)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("no memory limit: GOGC = %d, want the default", got)
	}
	tuneGC(2048)
	if got := debug.SetGCPercent(100); got != workerGCPercent {
		t.Errorf("GOGC = %d, want %d", got, workerGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("memory limit = %d, want 1 GiB (half of 2048 MiB)", got)
	}
	t.Setenv("GOGC", "50")
	tuneGC(2048)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("the user's GOGC: GOGC = %d, want it untouched", got)
	}
}

// TestLiftSoftLimit: an execution whose heap and mapped size grew past
// the workers' soft limit runs at go test's GOGC with three quarters of
// the limit as its soft limit, and the next execution has the workers' settings back;
// growth of one of the two alone, or below the soft limit, changes
// nothing.
func TestLiftSoftLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	const mb = 1 << 20
	s := memSampler{limit: 2048 * mb, soft: tuneGC(2048), prev: 100 * mb}
	if s.soft != 1024*mb {
		t.Fatalf("tuneGC(2048) = %d MiB, want 1024", s.soft/mb)
	}
	settings := func() (gogc int, limit int64) {
		gogc = debug.SetGCPercent(100)
		debug.SetGCPercent(gogc)
		return gogc, debug.SetMemoryLimit(-1)
	}
	s.sample(100*mb, 100*mb, 1) // execution 1 first seen: mapped 100 MiB
	s.baseHeap = 50 * mb
	for _, st := range []struct {
		vm, heap uint64
		lifted   bool
	}{
		{900 * mb, 900 * mb, false},   // both grew, by less than the soft limit
		{3000 * mb, 500 * mb, false},  // mapped only: a buffer not made in the heap
		{1000 * mb, 1500 * mb, false}, // the heap only (garbage against a mapped size that did not grow)
		{1200 * mb, 1200 * mb, true},  // both past the soft limit
	} {
		s.liftSoftLimit(st.vm, func() uint64 { return st.heap })
		gogc, limit := settings()
		want := struct {
			gogc  int
			limit int64
		}{workerGCPercent, 1024 * mb}
		if st.lifted {
			want.gogc, want.limit = 100, 1536*mb
		}
		if gogc != want.gogc || limit != want.limit {
			t.Errorf("mapped %d MiB, heap %d MiB: GOGC %d, soft limit %d MiB; want %d, %d MiB", st.vm/mb, st.heap/mb, gogc, limit/mb, want.gogc, want.limit/mb)
		}
	}
	s.sample(1300*mb, 1300*mb, 2) // the next execution
	if gogc, limit := settings(); gogc != workerGCPercent || limit != 1024*mb {
		t.Errorf("the next execution: GOGC %d, soft limit %d MiB; want the workers' %d, 1024 MiB", gogc, limit/mb, workerGCPercent)
	}
}

func TestMemSampler(t *testing.T) {
	defer memCheck.armed.Store(false)
	const mb = 1 << 20
	type step struct {
		vm, res, execs uint64
		grew           uint64 // mapped growth of the running execution over the limit
		resident       bool   // its resident growth too: blamed at once
		armed          bool
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"one execution grows across samples", []step{
			{100 * mb, 100 * mb, 1, 0, false, false}, {400 * mb, 400 * mb, 2, 0, false, false}, // exec 2 first seen at 400
			{800 * mb, 800 * mb, 2, 0, false, false}, {1500 * mb, 1500 * mb, 2, 1100 * mb, true, false},
		}},
		{"one execution maps more than the limit and touches little of it", []step{
			{100 * mb, 100 * mb, 1, 0, false, false}, {150 * mb, 150 * mb, 2, 0, false, false},
			{3200 * mb, 160 * mb, 2, 3050 * mb, false, false},
		}},
		{"growth where executions changed is not blamed", []step{
			{100 * mb, 100 * mb, 1, 0, false, false}, {5000 * mb, 5000 * mb, 9, 0, false, true},
			{5000 * mb, 5000 * mb, 9, 0, false, true}, {5000 * mb, 5000 * mb, 12, 0, false, true},
		}},
		{"growth below the limit", []step{
			{100 * mb, 100 * mb, 1, 0, false, false}, {900 * mb, 900 * mb, 1, 0, false, false},
			{1100 * mb, 1100 * mb, 5, 0, false, false}, {1900 * mb, 1900 * mb, 5, 0, false, false},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			memCheck.armed.Store(false)
			s := memSampler{limit: 1024 * mb, lastExec: 0, prev: 100 * mb, base: 100 * mb, baseRes: 100 * mb}
			for i, st := range tc.steps {
				if got, resident := s.sample(st.vm, st.res, st.execs); got != st.grew || resident != st.resident {
					t.Errorf("sample %d (%d MiB, %d MiB resident, exec %d): grew %d MiB, resident %v; want %d, %v", i, st.vm/mb, st.res/mb, st.execs, got/mb, resident, st.grew/mb, st.resident)
				}
				if got := memCheck.armed.Load(); got != st.armed {
					t.Errorf("sample %d: armed = %v, want %v", i, got, st.armed)
				}
			}
		})
	}
}

func TestCheckExecMemory(t *testing.T) {
	defer func(l uint64, mb int) { memCheck.limit, memCheck.mb = l, mb }(memCheck.limit, memCheck.mb)
	memCheck.limit, memCheck.mb = 64<<20, 64
	if exactMemory(false) {
		t.Error("a fuzz call measures every execution before the sampler armed the check")
	}
	if !exactMemory(true) {
		t.Error("a run call does not measure its execution")
	}
	runtime.GC() // no garbage left for a collection during the test to free
	before := heapBytes()
	if before.objects == 0 || before.live == 0 {
		t.Fatalf("heapBytes reads %+v", before)
	}
	keep := make([]byte, 16<<20)
	checkExecMemory(before) // 16 MiB live, under the limit: returns
	if after := heapBytes(); after.objects < before.objects+12<<20 {
		t.Errorf("heap grew by %d bytes after a live 16 MiB allocation", int64(after.objects)-int64(before.objects))
	}
	_ = keep[len(keep)-1]
}

// An execution that allocates more than the limit and drops it before it
// returns (a buffer sized from its input, never touched: no resident
// memory, and go test passes it) is no oom, in every run: the verdict
// depended on whether a collection had freed the buffer when the heap was
// read, and a reproducer written on one run passed its replay on the next.
// With the collector off, the buffer is still counted when the check
// reads the heap, as it was when a collection had not reached it yet.
func TestCheckExecMemoryDropped(t *testing.T) {
	defer func(l uint64, mb int) { memCheck.limit, memCheck.mb = l, mb }(memCheck.limit, memCheck.mb)
	memCheck.limit, memCheck.mb = 64<<20, 64
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	before := heapBytes()
	allocDropped(128 << 20)
	if after := heapBytes(); after.objects-before.objects < 128<<20 {
		t.Fatalf("the dropped buffer is not counted in the heap's objects (grew by %d bytes): the test tests nothing", after.objects-before.objects)
	}
	checkExecMemory(before) // would panic on a goroutine of its own and block
}

// TestCheckHeld: the heap check blames a running execution for what it
// holds past the limit for heldFor (confirmHeld in a confirming
// re-run), and not for what the worker held before
// the execution was first seen: a set-up no collection has counted yet (the
// collector off here, as under GOGC=off), which the last collection's live
// bytes leave out.
func TestCheckHeld(t *testing.T) {
	for _, confirming := range []bool{false, true} {
		wait := heldFor
		if confirming {
			wait = confirmHeld
		}
		t.Run(fmt.Sprint("confirming=", confirming), func(t *testing.T) {
			defer memCheck.confirming.Store(false)
			memCheck.confirming.Store(confirming)
			checkHeldOf(t, fmt.Sprintf("in the heap for %v while", wait))
		})
	}
}

// checkHeldOf checks that checkHeld blames an execution that holds twice
// the limit, with a message that contains want, and not the worker's
// set-up.
func checkHeldOf(t *testing.T, want string) {
	defer func(l uint64, mb int) { memCheck.limit, memCheck.mb = l, mb }(memCheck.limit, memCheck.mb)
	const limit = 64 << 20
	memCheck.limit, memCheck.mb = limit, 64
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	setup := make([]byte, 2*limit)
	const vm = 1 << 40 // the mapped size: over the limit
	execs := func() uint64 { return 1 }
	s := memSampler{limit: limit, prev: vm} // the set-up was mapped at the sample before
	s.sample(vm, 0, execs())                // the execution is first seen
	checks := func() (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
			}
		}()
		for end := time.Now().Add(2 * heldFor); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			s.checkHeld(vm, execs)
		}
		return ""
	}
	if msg := checks(); msg != "" {
		t.Fatalf("the worker's set-up blamed on the execution: %s", msg)
	}
	held := make([]byte, 2*limit)
	if msg := checks(); !strings.Contains(msg, "one execution held 12") || !strings.Contains(msg, want) || !strings.Contains(msg, "checkHeldOf") {
		t.Errorf("an execution holding twice the limit: %q, want an oom that says %q, with the allocation's stack", msg, want)
	}
	runtime.KeepAlive(setup)
	runtime.KeepAlive(held)
}

// TestMemoryFit: the warning comes when -parallel workers of
// -rss_limit_mb, and the coordinator, do not fit in the cgroup's limit,
// and it says what fits.
func TestMemoryFit(t *testing.T) {
	limit := func(mb uint64) func(string) (uint64, string) {
		return func(string) (uint64, string) { return mb << 20, "/sys/fs/cgroup/x" }
	}
	tests := []struct {
		limitMB       uint64
		parallel, rss int
		want          string // "" for no warning
	}{
		{0, 2, 2048, ""},
		{8192, 2, 2048, ""},
		{4096, 2, 2048, "-rss_limit_mb=1920 fits"},
		{2048, 8, 2048, "-rss_limit_mb=224 fits"},
		{512, 8, 2048, "run fewer workers"},
		{512, 1, 0, ""}, // no -rss_limit_mb: nothing to compare
	}
	for _, tt := range tests {
		m, ok := memoryFit(Options{Parallel: tt.parallel, RSSLimitMB: tt.rss}, limit(tt.limitMB))
		got := ""
		if !ok {
			got = m.warning()
		}
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("limit %d MiB, %d × %d MiB: %q, want %q", tt.limitMB, tt.parallel, tt.rss, got, tt.want)
		}
		if got != "" && !strings.Contains(got, "/sys/fs/cgroup/x") {
			t.Errorf("warning does not name the cgroup: %q", got)
		}
	}
}

// allocDropped allocates n bytes on the heap and drops them, as a target
// that sizes a buffer from its input and returns does.
//
//go:noinline
func allocDropped(n int) byte {
	b := make([]byte, n)
	return b[n-1]
}

// TestLargestAllocation: the stack reported for an execution's memory is
// the allocation's, whether the allocation is still live or was dropped
// before the check (and is freed by its collections).
func TestLargestAllocation(t *testing.T) {
	const n = 256 << 20
	allocDropped(3 * n / 2) // larger than keep below, when the test runs again
	if stack, what := largestAllocation(n); !strings.Contains(stack, "allocDropped") || !strings.Contains(what, "freed") {
		t.Errorf("a dropped allocation: got the %s at\n%s", what, stack)
	}
	keep := make([]byte, n)
	if stack, what := largestAllocation(n); !strings.Contains(stack, "TestLargestAllocation") || strings.Contains(what, "freed") {
		t.Errorf("a live allocation: got the %s at\n%s", what, stack)
	}
	runtime.KeepAlive(keep)
}

// TestWornByGrowth: a worker is replaced past three quarters of the memory
// limit, and past half of it (its collector's soft limit) once it holds
// twice the memory of its first fuzz call: what a target keeps from one
// input to the next would otherwise keep it collecting at the soft limit.
// A process that starts big is kept until three quarters.
func TestWornByGrowth(t *testing.T) {
	mem, err := ipc.CreateMem(1<<16, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	w := &worker{setup: &setup{opts: Options{RSSLimitMB: 2048}}}
	for _, tt := range []struct {
		name   string
		rss    []int64 // the readings before each check
		wornAt int     // the check that replaces it; -1 none
	}{
		{"no reading yet, then steady", []int64{0, 0, 120, 130, 140}, -1},
		{"grows from its first call past half", []int64{0, 120, 400, 900, 1100}, 4},
		{"starts big, kept until three quarters", []int64{800, 900, 1200, 1500, 1600}, 4},
		{"past three quarters at once", []int64{1600}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := &proc{mem: mem}
			got := -1
			for i, rss := range tt.rss {
				p.rss.Store(rss)
				if w.worn(p) {
					got = i
					break
				}
			}
			if got != tt.wornAt {
				t.Errorf("replaced at check %d, want %d", got, tt.wornAt)
			}
		})
	}
}

// peakProbeEnv makes the test binary a process that touches that many MiB,
// says so on its standard output and waits to be killed (TestNotGrown).
const peakProbeEnv = "FUZZBOX_TEST_PEAK_MB"

var peakHeld []byte

func peakProbe(mb string) {
	n, _ := strconv.Atoi(mb)
	peakHeld = make([]byte, n<<20)
	for i := 0; i < len(peakHeld); i += 4096 {
		peakHeld[i] = 1
	}
	os.Stdout.WriteString("ready\n")
	select {}
}

// TestNotGrown: a worker the kernel's OOM killer killed is the input's
// doing only if its peak resident memory (the wait status's) went well
// past a worker's usual size; a worker of the usual size killed is the
// machine's or cgroup's shortage (cgroup limits below what the workers
// hold wrote reproducers of innocent inputs as oom failures).
func TestNotGrown(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the peak of an exited process is read on Linux only")
	}
	killed := func(mb int) *proc {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), peakProbeEnv+"="+strconv.Itoa(mb))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		bufio.NewReader(out).ReadString('\n')
		cmd.Process.Kill()
		cmd.Wait()
		return &proc{state: cmd.ProcessState}
	}
	// A child's peak is at least its parent's at the fork (Linux keeps the
	// larger across exec, and os/exec shares the parent's memory until
	// then): the big one touches well past that.
	small := killed(8)
	usual := exitedPeakMB(small.state)
	big := killed(usual + 200)
	if peak := exitedPeakMB(big.state); peak < usual+200 {
		t.Fatalf("peak of a process that touched %d MiB: %d MiB", usual+200, peak)
	}
	if !notGrown(small, usual) {
		t.Errorf("a worker of the usual size (%d MiB) counted as grown", usual)
	}
	if notGrown(big, usual) {
		t.Errorf("a worker that grew to %d MiB, usually %d, counted as not grown", exitedPeakMB(big.state), usual)
	}
	if notGrown(small, 0) {
		t.Error("not grown with no usual size known")
	}
}

// TestAllocatedGrowth: the mapped size and the unallocated bytes are read
// as a pair, so a reservation released (or made) between two readings is
// never growth. The arm64 CI under qemu reported an oom for a 4-GiB
// reservation released by the time /proc/self/maps was read.
func TestAllocatedGrowth(t *testing.T) {
	const (
		gib   = 1 << 30
		base  = 100 << 20 // mapped size when the execution was first seen
		start = 10 << 20  // unallocated at the start
	)
	for _, tc := range []struct {
		name        string
		vms, unalls []uint64 // the successive readings
		want        uint64
	}{
		{"reservation released before the readings", []uint64{base}, []uint64{start, start}, 0},
		{"reservation still there", []uint64{base + 4*gib}, []uint64{start + 4*gib, start + 4*gib}, 0},
		{"allocated growth", []uint64{base + 3*gib}, []uint64{start, start}, 3 * gib},
		{"reservation made between the readings", []uint64{base + 4*gib, base + 4*gib}, []uint64{start, start + 4*gib, start + 4*gib, start + 4*gib}, 0},
		{"reservation released between the readings", []uint64{base, base}, []uint64{start + 4*gib, start, start, start}, 0},
		{"growth and a file's mapping", []uint64{base + 3*gib + gib}, []uint64{start + gib, start + gib}, 3 * gib},
		{"shrunk", []uint64{base - 50<<20}, []uint64{start, start}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := func(s *[]uint64) func() uint64 {
				return func() uint64 {
					v := (*s)[0]
					if len(*s) > 1 {
						*s = (*s)[1:]
					}
					return v
				}
			}
			vms, unalls := tc.vms, tc.unalls
			if got := allocatedGrowth(base, start, next(&vms), next(&unalls)); got != tc.want {
				t.Errorf("allocatedGrowth = %d MiB, want %d MiB", got>>20, tc.want>>20)
			}
		})
	}
}
