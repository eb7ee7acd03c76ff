package libfuzzer

// The C side of the binary: the engine's entry points, and what an engine
// without libFuzzer's coverage callbacks (AFL++'s driver) needs. The entry
// points hand each input to Go (handoff.go).

/*
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern void fuzzboxSetup(void);                 // export.go
extern int fuzzbox_handoff(const uint8_t *data, size_t size); // handoff.go

// ---- Coverage for engines without libFuzzer's callbacks ----

// The Go runtime registers its edge counters (and their PCs) at start-up and
// forwards string comparisons. libFuzzer and honggfuzz define these
// callbacks; the weak definitions below are used only when the engine does
// not (AFL++'s driver): they keep the counters' ranges, which
// LLVMFuzzerTestOneInput folds into AFL++'s map.
typedef struct {
	uint8_t *start, *end;
} fuzzbox_range;

static fuzzbox_range fuzzbox_ranges[16];
static int fuzzbox_nranges;

__attribute__((weak)) void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *end) {
	if (fuzzbox_nranges < (int)(sizeof fuzzbox_ranges / sizeof fuzzbox_ranges[0]) && start < end) {
		fuzzbox_ranges[fuzzbox_nranges++] = (fuzzbox_range){start, end};
	}
}

__attribute__((weak)) void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *end) {}

// AFL++'s CmpLog (afl-fuzz -c 0) records string operands with
// __cmplog_rtn_hook_str, keyed by its return address. The Go runtime calls
// the hook from one place and passes the comparison's site as pc; as the
// runtime does for the integer hooks (runtime/libfuzzer_amd64.s), the hook
// is called to return into a sled of ret instructions at pc mod 512, so that
// the sites get different keys.
extern void __cmplog_rtn_hook_str(uint8_t *s1, uint8_t *s2) __attribute__((weak));

#if defined(__x86_64__) && defined(__linux__)
// fuzzbox_call_with_pc(fn, s1, s2, pc) calls fn(s1, s2) with return address
// fuzzbox_ret_sled + pc mod 512; that ret returns to the label below.
void fuzzbox_call_with_pc(void (*fn)(uint8_t *, uint8_t *), const char *s1, const char *s2, uintptr_t pc);
__asm__(
	".pushsection .text\n"
	".p2align 4\n"
	"fuzzbox_ret_sled:\n"
	".rept 512\n"
	"ret\n"
	".endr\n"
	".p2align 4\n"
	"fuzzbox_call_with_pc:\n"
	"push %rbp\n"
	"mov %rsp, %rbp\n"
	"and $-16, %rsp\n"
	"sub $8, %rsp\n"
	"mov %rdi, %rax\n"
	"mov %rsi, %rdi\n"
	"mov %rdx, %rsi\n"
	"and $511, %rcx\n"
	"lea fuzzbox_ret_sled(%rip), %rdx\n"
	"add %rcx, %rdx\n"
	"lea 1f(%rip), %rcx\n"
	"push %rcx\n"
	"push %rdx\n"
	"jmp *%rax\n"
	"1:\n"
	"mov %rbp, %rsp\n"
	"pop %rbp\n"
	"ret\n"
	".popsection\n");
#endif

__attribute__((weak)) void __sanitizer_weak_hook_strcmp(void *pc, const char *s1, const char *s2, int result) {
	if (__cmplog_rtn_hook_str && result != 0) {
#if defined(__x86_64__) && defined(__linux__)
		fuzzbox_call_with_pc(__cmplog_rtn_hook_str, s1, s2, (uintptr_t)pc);
#else
		__cmplog_rtn_hook_str((uint8_t *)s1, (uint8_t *)s2);
#endif
	}
}

// AFL++'s runtime: the coverage map, its size, and its forkserver start.
extern uint8_t *__afl_area_ptr __attribute__((weak));
extern uint32_t __afl_map_size __attribute__((weak));
extern void __afl_manual_init(void) __attribute__((weak));

// fuzzbox_afl_start starts AFL++'s forkserver before the Go runtime starts
// its threads (a prioritized constructor runs before the unprioritized one
// that starts the Go runtime). AFL++'s driver would start it after
// LLVMFuzzerInitialize, in a process whose Go runtime threads a fork does not
// copy. Each forked child then starts the Go runtime and the fuzz test
// itself and runs inputs in persistent mode.
__attribute__((constructor(101))) static void fuzzbox_afl_start(void) {
	if (__afl_manual_init && getenv("__AFL_SHM_ID")) {
		__afl_manual_init();
	}
}

static int fuzzbox_afl(void) {
	return fuzzbox_nranges > 0 && &__afl_area_ptr && &__afl_map_size && __afl_area_ptr && __afl_map_size > 1;
}

static void fuzzbox_counters_clear(void) {
	for (int r = 0; r < fuzzbox_nranges; r++) {
		memset(fuzzbox_ranges[r].start, 0, fuzzbox_ranges[r].end - fuzzbox_ranges[r].start);
	}
}

// fuzzbox_afl_fold adds the Go counters to AFL++'s map, counter i of all the
// ranges at index 1 + i mod (size-1), saturating (index 0 is AFL++'s own).
static void fuzzbox_afl_fold(void) {
	uint8_t *area = __afl_area_ptr;
	uint32_t n = __afl_map_size - 1;
	uint64_t base = 0;
	for (int r = 0; r < fuzzbox_nranges; r++) {
		uint8_t *p = fuzzbox_ranges[r].start, *end = fuzzbox_ranges[r].end;
		for (; p < end; p++) {
			if (((uintptr_t)p & 7) == 0) {
				while (p + 8 <= end && *(const uint64_t *)p == 0) {
					p += 8;
				}
				if (p >= end) {
					break;
				}
			}
			if (*p) {
				uint8_t *a = &area[1 + (base + (uint64_t)(p - fuzzbox_ranges[r].start)) % n];
				unsigned v = *a + *p;
				*a = v > 255 ? 255 : v;
			}
		}
		base += (uint64_t)(end - fuzzbox_ranges[r].start);
	}
}

// ---- The comparison filter (driver/build/cmpfilter.go) ----

// The runtime of these binaries forwards a comparison to the engine only
// while fuzzbox_cmp_muted is clear in fuzzbox_cmp_mode: from testing's
// ResetCoverage, right before the fuzz function runs, to its
// SnapshotCoverage, right after (deps.go), as go test counts coverage. Set
// from the start, so that the fuzz test's setup is not traced, and again
// after each run of the fuzz function: testing's report of each input
// formats its duration through the instrumented fmt, whose comparisons
// would otherwise reach libFuzzer's value profile with operands that depend
// on the clock.
//
// While fuzzbox_cmp_filter is set too, the runtime skips a comparison when
// the two value-profile features it would set in the current input are set
// in fuzzbox_cmp_seen (1<<16 bits, by the comparison site's sled offset),
// cleared before each input as libFuzzer clears its value-profile map. Off
// under AFL++, whose CmpLog keeps every operand, and off with
// FUZZBOX_LIBFUZZER_CMPFILTER=0 (every comparison of the fuzz function
// forwarded, as go-118-fuzz-build's binaries do).
enum { fuzzbox_cmp_filter = 1, fuzzbox_cmp_muted = 2 };
uint8_t fuzzbox_cmp_mode = fuzzbox_cmp_filter | fuzzbox_cmp_muted;
uint8_t fuzzbox_cmp_seen[1 << 13];
// fuzzbox_cmp_sites counts the comparisons each site (sled offset) has
// forwarded in the input; the first few are forwarded whatever their
// features.
uint8_t fuzzbox_cmp_sites[512];

// ---- The fuzz function's edge counters ----

// The runtime registers its edge counters here (driver/build/cmpfilter.go),
// and the engine is given a shadow of them instead: it clears the shadow
// before each input and reads it after, and the shadow gets the counters as
// they are when the fuzz function returns (fuzzEnd, in Go), as go test
// counts them; testing's report of the input and the test's cleanups, which
// run after that, do not count. Counters not registered here (another Go
// release's runtime, compiled as it is) are the engine's own, as before.
uint8_t *fuzzbox_counters, *fuzzbox_counters_end, *fuzzbox_shadow;

void fuzzbox_counters_init(uint8_t *start, uint8_t *end) {
	if (start < end && (fuzzbox_shadow = calloc(end - start, 1))) {
		fuzzbox_counters = start;
		fuzzbox_counters_end = end;
		start = fuzzbox_shadow;
		end = fuzzbox_shadow + (fuzzbox_counters_end - fuzzbox_counters);
	}
	__sanitizer_cov_8bit_counters_init(start, end);
}

// ---- The engine's entry points ----

static pthread_once_t fuzzbox_once = PTHREAD_ONCE_INIT;

static void fuzzbox_start(void) {
	const char *filter = getenv("FUZZBOX_LIBFUZZER_CMPFILTER");
	if (filter && strcmp(filter, "0") == 0) {
		fuzzbox_cmp_mode &= ~fuzzbox_cmp_filter;
	}
	fuzzboxSetup();
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
	pthread_once(&fuzzbox_once, fuzzbox_start);
	return 0;
}

// LLVMFuzzerTestOneInput runs one input. A failing input has printed
// testing's report; it aborts, which the engine records as a crash.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	pthread_once(&fuzzbox_once, fuzzbox_start); // for engines that do not call LLVMFuzzerInitialize
	int afl = fuzzbox_afl();
	if (afl) {
		fuzzbox_cmp_mode &= ~fuzzbox_cmp_filter;
		fuzzbox_counters_clear();
	} else if (fuzzbox_cmp_mode & fuzzbox_cmp_filter) {
		memset(fuzzbox_cmp_seen, 0, sizeof fuzzbox_cmp_seen);
		memset(fuzzbox_cmp_sites, 0, sizeof fuzzbox_cmp_sites);
	}
	if (fuzzbox_handoff(data, size)) {
		abort();
	}
	if (afl) {
		fuzzbox_afl_fold();
	}
	return 0;
}
*/
import "C"

import (
	"encoding/binary"
	"unsafe"
)

// The counters (the runtime's, in Go memory) and their shadow (C memory),
// set once by setupCounters, before the first input (nil without a shadow).
var counters, shadow []byte

// setupCounters sets counters and shadow from the C side's pointers, which
// the runtime's registration of its counters set at start-up.
func setupCounters() {
	if C.fuzzbox_shadow == nil {
		return
	}
	n := int(uintptr(unsafe.Pointer(C.fuzzbox_counters_end)) - uintptr(unsafe.Pointer(C.fuzzbox_counters)))
	counters = unsafe.Slice((*byte)(unsafe.Pointer(C.fuzzbox_counters)), n)
	shadow = unsafe.Slice((*byte)(unsafe.Pointer(C.fuzzbox_shadow)), n)
}

// fuzzStart and fuzzEnd bracket the fuzz function's run on an input: the
// engine hears of the comparisons in between, and sees the edge counters
// as they are at its end. They are Go, not calls into C: testing calls them
// on every input, and a call into C costs more than what they do (the
// difference is within the noise of a whole run: bench/README.md, "Where
// checksum's gap is").
func fuzzStart() {
	clear(counters)
	C.fuzzbox_cmp_mode &^= C.fuzzbox_cmp_muted
}

// fuzzEnd mutes comparisons and copies the counters' nonzero 64-byte blocks
// to the shadow, which the engine cleared before the input.
func fuzzEnd() {
	C.fuzzbox_cmp_mode |= C.fuzzbox_cmp_muted
	copyHits(shadow, counters)
}

// copyHits copies the blocks of src that are not all zero to dst.
func copyHits(dst, src []byte) {
	const block = 64
	i := 0
	for ; i+block <= len(src); i += block {
		b := src[i : i+block : i+block]
		if binary.NativeEndian.Uint64(b)|binary.NativeEndian.Uint64(b[8:])|binary.NativeEndian.Uint64(b[16:])|
			binary.NativeEndian.Uint64(b[24:])|binary.NativeEndian.Uint64(b[32:])|binary.NativeEndian.Uint64(b[40:])|
			binary.NativeEndian.Uint64(b[48:])|binary.NativeEndian.Uint64(b[56:]) != 0 {
			copy(dst[i:i+block], b)
		}
	}
	copy(dst[i:], src[i:])
}
