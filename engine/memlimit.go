package engine

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// rssLimitMBEnv carries -rss_limit_mb (Options.RSSLimitMB; 0 = no limit)
// from the coordinator to its workers.
const rssLimitMBEnv = "FUZZBOX_RSS_LIMIT_MB"

// workerMaxStack is the goroutine stack limit in workers. Go's default of
// 1 GB makes a runaway recursion take many seconds under instrumentation
// and look like a hang; at 256 MB it is reported as the stack overflow it
// is, and stock go test still overflows on the reproducer.
const workerMaxStack = 256 << 20

// limitWorkerMemory enforces the memory limit from inside the worker. The
// coordinator polls the worker's resident set, but resident memory grows
// only as pages are touched, which for a huge slice takes seconds. Here a
// goroutine samples the process's mapped size every 10 ms and, when the
// execution running now has grown it by more than the limit since it was
// first seen running, panics: the process ends with every goroutine's stack,
// the allocating one among them, and a message the coordinator reports as
// oom. (The Go heap's own metrics are no help there: reading them waits for
// the allocating goroutine, busy zeroing or copying gigabytes, to reach a
// safe point.)
//
// Only resident growth is blamed at once. A buffer the execution only
// mapped (sized from its input, not touched) costs no memory, and the
// execution may drop it before it returns, as go test passes it: it is
// judged when the execution returns, by the exact check's full collection
// (checkRetained). Blamed on its mapped size, it was an oom in one run and
// not in the next, as the sampler's 10 ms fell (bench/README.md, "A soak of
// seven new modules").
//
// Growth in an interval in which one execution ended and another began
// cannot be pinned on either: a fast worker runs hundreds of inputs in
// 10 ms, and an input that allocates gigabytes without touching them
// returns in microseconds, so blaming the input running at the next sample
// would report the wrong one. Such growth arms the exact check instead
// (memCheck), which from then on measures each execution on its own.
func limitWorkerMemory(execs func() uint64, heldElsewhere func() bool) {
	debug.SetMaxStack(workerMaxStack)
	rssLimitMB, _ := strconv.Atoi(os.Getenv(rssLimitMBEnv))
	soft := tuneGC(rssLimitMB)
	if vm, _ := vmBytes(); rssLimitMB <= 0 || vm == 0 {
		return
	}
	limit := uint64(rssLimitMB) << 20
	memCheck.limit, memCheck.mb, memCheck.heldElsewhere = limit, rssLimitMB, heldElsewhere
	// The bases are taken here, while no input runs: the goroutine may
	// first run after an input has begun, even ended (on one processor,
	// when the worker first blocks), and an input that made its buffers
	// before the first sample was measured from them, never over the limit.
	s := memSampler{limit: limit, soft: soft, lastExec: execs()}
	s.prev, s.baseRes = vmBytes()
	h := readHeap(samplerHeap)
	s.base, s.baseLive, s.baseHeap = s.prev, h.live, h.objects
	unalloc := unallocatedBytes() // reservations and files' mappings at the start
	go func() {
		if testHookSampling != nil {
			testHookSampling()
		}
		mapped := func() uint64 { vm, _ := vmBytes(); return vm }
		for range time.Tick(10 * time.Millisecond) {
			vm, res := vmBytes()
			grew, resident := s.sample(vm, res, execs())
			s.liftSoftLimit(vm, func() uint64 { return readHeap(samplerHeap).objects })
			s.checkHeld(vm, execs)
			if grew == 0 || allocatedGrowth(s.base, unalloc, mapped, unallocatedBytes) <= limit {
				continue
			}
			if resident {
				panic(fmt.Sprintf("fuzzbox: out of memory: one execution grew the worker by %d MiB, over -rss_limit_mb=%d", grew>>20, rssLimitMB))
			}
			memCheck.suspectLive.Store(s.baseLive)
			memCheck.suspect.Store(s.lastExec)
		}
	}()
}

// testHookSampling, when set (by the engine's tests only), runs as the
// memory sampler's goroutine starts.
var testHookSampling func()

// heldFor is how long an execution that is still running must keep more
// than the memory limit in the heap to be an oom before it returns
// (checkHeld); the wait of a re-run that confirms such an oom is shorter
// (heldWait).
const heldFor = 500 * time.Millisecond

// confirmHeld is heldFor in a re-run that confirms an oom of checkHeld
// (ipc.RunArgs.HeldOOM).
const confirmHeld = 100 * time.Millisecond

// heldInHeap marks the message of an oom of checkHeld (heldOOM).
const heldInHeap = " in the heap for "

// heldWait returns how long the running execution must keep more than
// the limit in the heap: heldFor, or confirmHeld in a re-run that
// confirms an oom of checkHeld, whose input held it for heldFor in the
// first worker. x/text's UTF-16 decoder waited out both, 1 s of the 2.35 s
// it took to its oom (bench/README.md, "A confirming re-run's shorter
// wait").
func heldWait() time.Duration {
	if memCheck.confirming.Load() || memCheck.heldElsewhere != nil && memCheck.heldElsewhere() {
		return confirmHeld
	}
	return heldFor
}

// checkHeld ends the worker when the execution running now has had more
// than the limit in the heap, over the heap's size when the execution was
// first seen, at every sample for heldWait(), and still has after a full
// collection. An input that makes buffers without end, their pages touched
// slowly or not at all, never returns to be judged, and its resident memory
// reaches the limit late: golang.org/x/text's UTF-16 decoder doubles its
// buffers for ever on one byte (CVE-2020-14040), and the worker, the
// runtime clearing their pages at 150–450 MB/s on this machine, reached
// -rss_limit_mb after 17–25 s, where libFuzzer reports it in 6–8 s.
//
// The heap's objects count an allocation still being cleared, and garbage
// not yet swept, which the collection takes out. An input that holds a
// buffer a moment, as go test passes it (TestNoOOM's bigdrop), has dropped
// it long before heldFor. The base counts garbage too, so the growth is
// never more than the execution's own: the last collection's live bytes,
// which the exact check compares with, may predate what the fuzz test's
// set-up allocated since (with GOGC=off, all of it), and a worker holding a
// large set-up would blame each long execution for it (TestCheckHeld).
func (s *memSampler) checkHeld(vm uint64, execs func() uint64) {
	if vm <= s.limit || !s.over(readHeap(samplerHeap).objects) {
		s.heldSince = time.Time{}
		return
	}
	now := time.Now()
	if s.heldSince.IsZero() {
		s.heldSince = now
	}
	wait := heldWait()
	if now.Sub(s.heldSince) < wait {
		return
	}
	e := execs()
	runtime.GC()
	held := readHeap(samplerHeap).objects
	if execs() != e || e != s.lastExec || !s.over(held) {
		s.heldSince = time.Time{} // garbage, or another execution ran
		return
	}
	grew := held - s.baseHeap
	msg := fmt.Sprintf("fuzzbox: out of memory: one execution held %d MiB"+heldInHeap+"%v while it ran, over -rss_limit_mb=%d", grew>>20, wait, memCheck.mb)
	if stack, what := largestAllocation(grew); stack != "" {
		msg += "\n\nthe " + what + " was made at:\n" + stack
	}
	panic(msg)
}

// liftSoftLimit gives the running execution go test's GOGC, and three
// quarters of the limit as its soft memory limit, once its heap and its
// mapped size have grown past the workers' soft limit (tuneGC) since it was
// first seen: that soft limit no longer holds the heap, it only makes the
// runtime collect back to back and return freed pages to the kernel, which
// the next allocation faults in and clears again. x/text's UTF-16 decoder,
// which doubles its buffers for ever, was an oom after a median of 3.2 s
// with it and 2.35 s without (bench/README.md, "The soft memory limit
// lifted"). The quarter left is for the runtime's overshoot and the
// worker's memory outside the heap, so that garbage alone still does not
// bring the worker to the limit; the next execution has the workers'
// settings back (sample). heap reads the heap's objects, and is called
// only past the mapped size.
func (s *memSampler) liftSoftLimit(vm uint64, heap func() uint64) {
	if s.soft == 0 || s.lifted || vm <= s.base || vm-s.base <= s.soft {
		return
	}
	if h := heap(); h <= s.baseHeap || h-s.baseHeap <= s.soft {
		return
	}
	s.lifted = true
	setGC(100, s.limit/4*3)
}

// over reports whether the heap's bytes are more than the limit over its
// size when the running execution was first seen.
func (s *memSampler) over(heap uint64) bool {
	return heap > s.baseHeap && heap-s.baseHeap > s.limit
}

// memSampler is limitWorkerMemory's state between samples.
type memSampler struct {
	limit    uint64
	soft     uint64 // the workers' soft memory limit (tuneGC); 0 if not set
	lifted   bool   // the running execution has go test's GOGC (liftSoftLimit)
	lastExec uint64 // executions started at the previous sample
	prev     uint64 // mapped size at the previous sample
	base     uint64 // mapped size when the current execution was first seen running
	baseRes  uint64 // its resident memory then (vmBytes' anon)
	baseLive uint64 // the heap's live bytes then (heapMark.live)
	// baseHeap is the heap's objects then, garbage too (heapMark.objects),
	// or the execution's before when the mapped size grew by more than the
	// limit since the sample before: what an execution makes in its first
	// 10 ms is its own for checkHeld, which a full collection and, if it
	// was the execution's before, a fresh worker's re-run check.
	baseHeap  uint64
	heldSince time.Time // since when the heap has been over the limit at every sample (checkHeld); zero if not
}

// sample takes the mapped size vm, the resident size res and the count of
// executions started e, and returns the mapped growth over the limit of
// the execution running now, or 0, and whether its resident memory grew
// over the limit too. Growth over the limit in an interval where the count
// changed arms the exact check instead.
func (s *memSampler) sample(vm, res, e uint64) (grew uint64, resident bool) {
	switch {
	case e != s.lastExec:
		across := vm > s.prev && vm-s.prev > s.limit
		if across {
			memCheck.armed.Store(true)
		}
		s.lastExec, s.base, s.baseRes, s.heldSince = e, vm, res, time.Time{}
		if s.lifted {
			s.lifted = false
			setGC(workerGCPercent, s.soft)
		}
		if memCheck.limit > 0 {
			h := readHeap(samplerHeap)
			s.baseLive = h.live
			if !across {
				s.baseHeap = h.objects
			}
		}
	case vm > s.base && vm-s.base > s.limit:
		grew, resident = vm-s.base, res > s.baseRes && res-s.baseRes > s.limit
	}
	s.prev = vm
	return grew, resident
}

// allocatedGrowth returns how much the process's allocated memory grew
// since the mapped size was base, with unalloc bytes of it unallocated
// (unallocatedBytes at the start): the mapped size now (vm) less what is
// unallocated now (unallocated), reservations without access and files'
// mappings made since the start being taken as the input's, so that none is
// blamed on it. The two are read as a pair, unallocated before and after
// the mapped size until both readings agree: a sample's growth may be a
// reservation already released when /proc/self/maps is read (under load or
// qemu, milliseconds later), which compared with the sample's size was an
// oom that go test passes.
func allocatedGrowth(base, unalloc uint64, vm, unallocated func() uint64) uint64 {
	var v, u uint64
	for range 4 {
		u = unallocated()
		v = vm()
		if unallocated() == u {
			break
		}
	}
	if u > unalloc {
		v -= min(v, u-unalloc)
	}
	if v <= base {
		return 0
	}
	return v - base
}

// memCheck is the exact memory check: the Go heap's objects before and
// after each execution, so that an input that leaves more than the limit
// live when it returns is reported as it returns, whatever ran before or
// after it. Reading the heap's metrics costs about 250 ns, so fuzz calls
// check only once the sampler has seen growth it could not attribute
// (armed); runs and minimization, where each input must be judged on its
// own, always check.
var memCheck struct {
	limit uint64 // bytes; 0 without a memory limit
	mb    int    // the same in MiB (-rss_limit_mb), for messages
	armed atomic.Bool
	// suspect is the execution (its number, ipc.Mem.Execs) whose mapped
	// size the sampler saw grow past the limit while its resident memory
	// did not, to be judged as it returns (checkRetained) against
	// suspectLive, the heap's live bytes when it was first seen running.
	suspect, suspectLive atomic.Uint64
	// confirming is set while an execution confirms an oom of checkHeld
	// (ipc.RunArgs.HeldOOM): checkHeld's wait is then confirmHeld.
	confirming atomic.Bool
	// heldElsewhere reports the same of an execution already running
	// when the coordinator learned it (ipc.Mem.Held): an early
	// confirmation's.
	heldElsewhere func() bool
}

// heapSample and samplerHeap are heapBytes' metrics, read into in place:
// the worker's calls and the sampler's goroutine's.
var heapSample, samplerHeap = heapMetrics(), heapMetrics()

func heapMetrics() []metrics.Sample {
	return []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
}

// exactMemory reports whether executions are to be measured one by one:
// always when exact is set, in fuzz calls once armed.
func exactMemory(exact bool) bool {
	return memCheck.limit > 0 && (exact || memCheck.armed.Load())
}

// A heapMark is the heap's size at one time: its objects, live or not yet
// swept, and those the last collection marked live.
type heapMark struct{ objects, live uint64 }

// heapBytes returns the heap's size now.
func heapBytes() heapMark { return readHeap(heapSample) }

// readHeap returns the heap's size now, read into s (heapMetrics).
func readHeap(s []metrics.Sample) heapMark {
	metrics.Read(s)
	var m heapMark
	if v := s[0].Value; v.Kind() == metrics.KindUint64 {
		m.objects = v.Uint64()
	}
	if v := s[1].Value; v.Kind() == metrics.KindUint64 {
		m.live = v.Uint64()
	}
	return m
}

// checkExecMemory ends the worker as the sampler does when the execution
// that began when the heap was before left more than the limit live. It
// panics on a goroutine of its own, so that no recovery of the worker's
// call loop takes it for the worker's own fault, and the process dies with
// the input still in shared memory.
//
// The heap's objects count those not yet swept, so an execution whose
// objects grew past the limit may have dropped them before it returned (a
// buffer sized from its input, never touched: it costs no resident memory
// and go test passes it). Whether a collection had freed them when they
// were counted depends on when it ran, and a verdict on that made the
// same input an oom in one run and not in the next: its reproducer's
// replay passed, and fresh workers' re-runs called a deterministic input
// flaky (bench/README.md, "A soak of seven new modules"). So that growth
// is checked by a full collection: what is live then, against what the
// last collection before the execution found live, is the execution's.
func checkExecMemory(before heapMark) {
	after := heapBytes()
	if after.objects <= before.objects || after.objects-before.objects <= memCheck.limit {
		return
	}
	checkRetained(before.live)
}

// checkRetained ends the worker as checkExecMemory does when, after a full
// collection, the heap's live bytes exceed beforeLive, what was live before
// the execution, by more than the limit.
func checkRetained(beforeLive uint64) {
	runtime.GC()
	after := heapBytes()
	if after.live <= beforeLive || after.live-beforeLive <= memCheck.limit {
		return
	}
	grew := after.live - beforeLive
	msg := fmt.Sprintf("fuzzbox: out of memory: one execution left %d MiB live when it returned, over -rss_limit_mb=%d", grew>>20, memCheck.mb)
	if stack, what := largestAllocation(grew); stack != "" {
		msg += "\n\nthe " + what + " was made at:\n" + stack
	}
	go func() { panic(msg) }()
	select {}
}

// largestAllocation returns the stack of the allocation most likely to be
// the execution's, which grew the heap by grew bytes, formatted as in a
// goroutine dump, and what it is; "" when there is no profile. The heap's
// bytes count dead objects not yet swept: the execution may have dropped
// what it allocated (a buffer sized from the input, never touched), which
// the collections here free. So the largest live allocation is taken only
// when it is at least half the growth; otherwise the largest single
// allocation of the process, by its stack's average size (said to be
// freed when nothing allocated there is live). The profile
// samples about one allocation per 512 KiB, so one over the memory limit
// is always in it; two collections publish the latest allocations.
func largestAllocation(grew uint64) (stack, what string) {
	runtime.GC()
	runtime.GC()
	n, _ := runtime.MemProfile(nil, true)
	recs := make([]runtime.MemProfileRecord, n+64)
	n, ok := runtime.MemProfile(recs, true)
	if !ok || n == 0 {
		return "", ""
	}
	recs = recs[:n]
	best := &recs[0]
	for i := range recs {
		if recs[i].InUseBytes() > best.InUseBytes() {
			best = &recs[i]
		}
	}
	what = "largest live allocation"
	if uint64(best.InUseBytes()) < grew/2 {
		avg := func(r *runtime.MemProfileRecord) int64 { return r.AllocBytes / max(r.AllocObjects, 1) }
		for i := range recs {
			if avg(&recs[i]) > avg(best) {
				best = &recs[i]
			}
		}
		what = "largest single allocation"
		if best.InUseBytes() == 0 {
			what += " (freed since)"
		}
	}
	return formatStack(best.Stack()), what
}

// formatStack formats the program counters of a profile's stack as a
// goroutine dump does.
func formatStack(pcs []uintptr) string {
	var b strings.Builder
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if f.Function != "" {
			fmt.Fprintf(&b, "%s(...)\n\t%s:%d\n", f.Function, f.File, f.Line)
		}
		if !more {
			break
		}
	}
	return b.String()
}

// workerGCPercent is the workers' GOGC. A worker's live heap is small and
// every input allocates afresh (testing's goroutine, T and context, the
// target's own garbage), so at Go's default of 100 it collected several
// dozen times a second: 6–12% more executions per CPU second at 400 on
// bench/targets/nobug and bench/realworld/dnsrr.
const workerGCPercent = 400

// tuneGC sets the workers' GOGC, with a soft memory limit at half of
// -rss_limit_mb so that the larger heap goal never brings a worker near the
// limit with garbage: a target whose live heap nears half the limit is
// collected as often as it needs (at Go's default, such a heap would reach
// the limit and be reported as oom). With no memory limit, or GOGC or
// GOMEMLIMIT set by the user, the runtime's settings stay. It returns the
// soft limit it set, or 0.
func tuneGC(limitMB int) (soft uint64) {
	if limitMB <= 0 || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	soft = uint64(limitMB) << 20 / 2
	setGC(workerGCPercent, soft)
	return soft
}

// setGC sets the worker's GOGC and its soft memory limit in bytes: the
// workers' settings (tuneGC), and those of an execution past them
// (liftSoftLimit).
func setGC(percent int, soft uint64) {
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(int64(soft))
}

// coordinatorMB is what memoryFit leaves for the coordinator beside the
// workers.
const coordinatorMB = 256

// A memoryMisfit is a cgroup memory limit that -parallel workers of
// -rss_limit_mb do not fit in, with the coordinator (memoryFit).
type memoryMisfit struct {
	dir                     string // the cgroup directory with the limit
	limitMB, workers, rssMB int
	fix                     string // what to change
}

// memoryFit reports whether the memory limit of the cgroup the run is in
// (limit; cgroupMemLimit but in tests) is less than the workers may use
// under -rss_limit_mb: there the kernel's OOM killer, not fuzzbox, stops
// an input that grows memory, with a SIGKILL and no stack, and it may kill
// a worker whose input is not the one growing.
func memoryFit(opts Options, limit func(root string) (uint64, string)) (memoryMisfit, bool) {
	l, dir := limit("")
	if l == 0 || opts.RSSLimitMB <= 0 {
		return memoryMisfit{}, true
	}
	m := memoryMisfit{dir: dir, limitMB: int(l >> 20), workers: max(opts.Parallel, 1), rssMB: opts.RSSLimitMB, fix: "run fewer workers (-parallel)"}
	if m.limitMB >= m.workers*m.rssMB+coordinatorMB {
		return memoryMisfit{}, true
	}
	if fit := (m.limitMB - coordinatorMB) / m.workers; fit >= 64 {
		m.fix = fmt.Sprintf("-rss_limit_mb=%d fits", fit)
	}
	return m, false
}

// String says what does not fit, and the fix.
func (m memoryMisfit) String() string {
	return fmt.Sprintf("the cgroup the run is in, %s, has a memory limit of %d MiB, less than %d workers of -rss_limit_mb=%d may use; %s",
		m.dir, m.limitMB, m.workers, m.rssMB, m.fix)
}

// warning is the warning at the start of a run.
func (m memoryMisfit) warning() string {
	return fmt.Sprintf("%s: an input that grows memory can have the kernel's OOM killer kill a worker before fuzzbox's limit reports it with a stack", m)
}
