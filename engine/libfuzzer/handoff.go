package libfuzzer

// The hand-off of inputs between the engine's thread and the goroutine that
// runs them.
//
// Go code called from C stays locked to the C thread, and testing runs each
// input in a goroutine of its own: if the engine's call ran the input, the
// locked caller would block while that goroutine ran on another thread, and
// each input would cost two thread wake-ups (about 30 µs here, against 1 µs
// for the same path unlocked: BenchmarkInput). Instead, the engine's thread
// posts the input in a slot and a goroutine that is not locked (serve) runs
// it, with testing's goroutine on the same thread. Each side waits for the
// other by spinning for a while and only then sleeps: on a pthread
// condition variable for the engine's thread, on a channel for the Go side,
// which the engine's thread wakes with a call into Go. While inputs flow,
// neither side sleeps and no thread is woken. A side spins only while the
// other runs on another processor; on the same one, it yields to it.

/*
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stddef.h>
#include <time.h>

enum { fuzzbox_idle, fuzzbox_posted, fuzzbox_done };

// The slot: state moves idle → posted (engine's thread, input in data and
// size) → done (Go, verdict in failed) → idle (engine's thread). The
// sleeping flags say that a side has stopped spinning and must be woken.
typedef struct {
	uint32_t state;
	uint32_t go_sleeping;
	uint32_t c_sleeping;
	int32_t failed;
	int32_t c_cpu, go_cpu; // the processor each side last ran on
	const uint8_t *data;
	size_t size;
} fuzzbox_slot_t;

fuzzbox_slot_t fuzzbox_slot;

static pthread_mutex_t fuzzbox_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fuzzbox_cond = PTHREAD_COND_INITIALIZER;

extern void fuzzboxWake(void); // export.go

// The engine's thread spins for at most fuzzbox_spin_ns before it sleeps
// (fuzzbox_next_spin).
enum { fuzzbox_spin_min = 2000, fuzzbox_spin_max = 200000 };
static int64_t fuzzbox_spin_ns = fuzzbox_spin_max;

// fuzzbox_next_spin returns the engine's thread's next spin from the last
// one, spin: doubled (up to 200 µs) after an input the thread did not have to
// sleep for (spun); after one it slept for, back to 200 µs if the verdict
// came within that (waited, from the post), so that spinning would have
// caught it, and halved (down to 2 µs) if not, so that a slow target does not
// keep a core spinning for nothing. Halving alone after every sleep left a
// spin that a few slow inputs in a row (a collection, the seeds) had cut to
// microseconds there for good on a target whose inputs take tens: each input
// then slept and was woken.
static int64_t fuzzbox_next_spin(int64_t spin, int spun, int64_t waited) {
	if (spun) {
		return spin * 2 < fuzzbox_spin_max ? spin * 2 : fuzzbox_spin_max;
	}
	if (waited < fuzzbox_spin_max) {
		return fuzzbox_spin_max;
	}
	return spin / 2 > fuzzbox_spin_min ? spin / 2 : fuzzbox_spin_min;
}

static int64_t fuzzbox_now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

// fuzzbox_cpu returns the processor the calling thread runs on; -1 where
// that is unknown, which makes spinning yield at every check.
static int fuzzbox_cpu(void) {
#if defined(__linux__)
	return sched_getcpu();
#else
	return -1;
#endif
}

static inline void fuzzbox_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

// fuzzbox_spin_until waits until start + budget ns (start: fuzzbox_now) for
// *p to hold want; it reports whether it did. It spins only while the other side runs on another
// processor (*other_cpu, which that side keeps up to date): on the same
// one, each check yields the processor to it.
static int fuzzbox_spin_until(uint32_t *p, uint32_t want, int64_t start, int64_t budget, int32_t *other_cpu) {
	int cpu = fuzzbox_cpu();
	for (unsigned i = 1;; i++) {
		if (__atomic_load_n(p, __ATOMIC_ACQUIRE) == want) {
			return 1;
		}
		if (__atomic_load_n(other_cpu, __ATOMIC_RELAXED) == cpu) {
			sched_yield();
			cpu = fuzzbox_cpu();
		} else {
			fuzzbox_pause();
		}
		if (i % 64 == 0 && fuzzbox_now() - start >= budget) {
			return 0;
		}
	}
}

// fuzzbox_handoff runs one input on the Go side and returns its verdict
// (non-zero: it failed). The input must stay valid during the call.
int fuzzbox_handoff(const uint8_t *data, size_t size) {
	fuzzbox_slot.data = data;
	fuzzbox_slot.size = size;
	__atomic_store_n(&fuzzbox_slot.c_cpu, fuzzbox_cpu(), __ATOMIC_RELAXED);
	int64_t posted = fuzzbox_now();
	__atomic_store_n(&fuzzbox_slot.state, fuzzbox_posted, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&fuzzbox_slot.go_sleeping, __ATOMIC_SEQ_CST)) {
		fuzzboxWake();
	}
	int spun = fuzzbox_spin_until(&fuzzbox_slot.state, fuzzbox_done, posted, fuzzbox_spin_ns, &fuzzbox_slot.go_cpu);
	if (!spun) {
		pthread_mutex_lock(&fuzzbox_mu);
		__atomic_store_n(&fuzzbox_slot.c_sleeping, 1, __ATOMIC_SEQ_CST);
		while (__atomic_load_n(&fuzzbox_slot.state, __ATOMIC_SEQ_CST) != fuzzbox_done) {
			pthread_cond_wait(&fuzzbox_cond, &fuzzbox_mu);
		}
		__atomic_store_n(&fuzzbox_slot.c_sleeping, 0, __ATOMIC_SEQ_CST);
		pthread_mutex_unlock(&fuzzbox_mu);
	}
	fuzzbox_spin_ns = fuzzbox_next_spin(fuzzbox_spin_ns, spun, spun ? 0 : fuzzbox_now() - posted);
	int failed = fuzzbox_slot.failed;
	__atomic_store_n(&fuzzbox_slot.state, fuzzbox_idle, __ATOMIC_SEQ_CST);
	return failed;
}

// fuzzbox_wake_c wakes the engine's thread if it sleeps for a verdict.
static void fuzzbox_wake_c(void) {
	pthread_mutex_lock(&fuzzbox_mu);
	pthread_cond_signal(&fuzzbox_cond);
	pthread_mutex_unlock(&fuzzbox_mu);
}

// fuzzbox_go_wait_posted is serve's spin for the next input, as
// fuzzbox_spin_until; it records the Go side's processor before it spins and
// once the input is there, for the engine's thread's spin.
static int fuzzbox_go_wait_posted(int64_t budget) {
	__atomic_store_n(&fuzzbox_slot.go_cpu, fuzzbox_cpu(), __ATOMIC_RELAXED);
	int ok = fuzzbox_spin_until(&fuzzbox_slot.state, fuzzbox_posted, fuzzbox_now(), budget, &fuzzbox_slot.c_cpu);
	if (ok) {
		__atomic_store_n(&fuzzbox_slot.go_cpu, fuzzbox_cpu(), __ATOMIC_RELAXED);
	}
	return ok;
}
*/
import "C"

import (
	"sync/atomic"
	"time"
	"unsafe"
)

// goSpin is how long serve spins for the next input before it sleeps. The
// engine's own work between two inputs (mutation, reading the counters)
// takes microseconds; it pauses for longer only now and then (writing a
// corpus file, printing its stats).
const goSpin = 100 * time.Microsecond

// wake is how the engine's thread wakes a sleeping serve (fuzzboxWake).
var wake = make(chan struct{}, 1)

// slotWord returns one of the slot's 32-bit words, for sync/atomic.
func slotWord(p *C.uint32_t) *uint32 { return (*uint32)(unsafe.Pointer(p)) }

// serve runs the inputs the engine's thread posts, one at a time, forever.
// A failing input's report is printed before the verdict is posted, so that
// it precedes the engine's crash report.
func serve(t *target) {
	state := slotWord(&C.fuzzbox_slot.state)
	gate := newWakeGate()
	gate.hold()
	for {
		waitPosted(state, gate)
		gate.begin()
		var in []byte
		if n := int(C.fuzzbox_slot.size); n > 0 {
			in = unsafe.Slice((*byte)(unsafe.Pointer(C.fuzzbox_slot.data)), n)
		}
		C.fuzzbox_slot.failed = 0
		inputStarted()
		err := t.run(in)
		running.Store(0)
		if err != nil {
			t.report(err)
			C.fuzzbox_slot.failed = 1
		}
		atomic.StoreUint32(state, C.fuzzbox_done)
		if atomic.LoadUint32(slotWord(&C.fuzzbox_slot.c_sleeping)) != 0 {
			C.fuzzbox_wake_c()
		}
	}
}

// waitPosted returns once an input is posted: it spins (in C, which does
// not hold up the Go scheduler any more than a system call) for goSpin,
// then sleeps until the engine's thread wakes it, with the gate's wake-ups
// let through (the engine's thread readies it from a call into Go, which
// returns to C at once: another thread must take it up).
func waitPosted(state *uint32, gate *wakeGate) {
	for C.fuzzbox_go_wait_posted(C.int64_t(goSpin)) == 0 {
		sleeping := slotWord(&C.fuzzbox_slot.go_sleeping)
		atomic.StoreUint32(sleeping, 1)
		if atomic.LoadUint32(state) != C.fuzzbox_posted {
			gate.release()
			<-wake
			gate.hold()
		}
		atomic.StoreUint32(sleeping, 0)
		if atomic.LoadUint32(state) == C.fuzzbox_posted {
			return
		}
	}
}

// nextSpin is fuzzbox_next_spin, for tests.
func nextSpin(spin time.Duration, spun bool, waited time.Duration) time.Duration {
	s := C.int(0)
	if spun {
		s = 1
	}
	return time.Duration(C.fuzzbox_next_spin(C.int64_t(spin), s, C.int64_t(waited)))
}

// wakeServe is fuzzboxWake's body: it wakes serve if it sleeps (a wake-up
// that finds it spinning is harmless: it checks the slot again).
func wakeServe() {
	select {
	case wake <- struct{}{}:
	default:
	}
}
