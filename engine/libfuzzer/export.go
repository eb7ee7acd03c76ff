package libfuzzer

/*
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// Defined by the link step of "fuzzbox build -libfuzzer" (one small C file
// per fuzz test); weak, so that a binary linked without it still links.
extern const char fuzzbox_libfuzzer_target[] __attribute__((weak));

static const char *fuzzbox_target_name(void) { return fuzzbox_libfuzzer_target; }
*/
import "C"

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"unsafe"
)

// seedsEnv names the environment variable of the seed corpus mode.
const seedsEnv = "FUZZBOX_LIBFUZZER_SEEDS"

var (
	setupOnce sync.Once
	the       *target
)

// LLVMFuzzerInitialize is called once by libFuzzer (and AFL++'s and
// honggfuzz's drivers) before the first input.
//
//export LLVMFuzzerInitialize
func LLVMFuzzerInitialize(argc *C.int, argv ***C.char) C.int {
	setupOnce.Do(initialize)
	return 0
}

// LLVMFuzzerTestOneInput runs one input. A failure prints testing's report
// and aborts: the engine records the input as a crash.
//
//export LLVMFuzzerTestOneInput
func LLVMFuzzerTestOneInput(data *C.uint8_t, size C.size_t) C.int {
	setupOnce.Do(initialize) // for drivers that do not call LLVMFuzzerInitialize
	var in []byte
	if size > 0 {
		in = unsafe.Slice((*byte)(unsafe.Pointer(data)), int(size))
	}
	if err := the.run(in); err != nil {
		fmt.Fprintf(os.Stderr, "\n--- fuzzbox: %s failed on this input:\n%s\n", the.name, err)
		C.abort()
	}
	return 0
}

// initialize sets up the target, or ends the process with the reason. In
// the seed corpus mode it writes the seeds and exits.
func initialize() {
	t, err := setup(targetName())
	if err == nil && os.Getenv(seedsEnv) != "" {
		err = t.writeSeeds(os.Getenv(seedsEnv))
		if err == nil {
			os.Exit(0)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "fuzzbox: %v\n", err)
		os.Exit(2)
	}
	the = t
}

// targetName returns the fuzz test's name: the one the link step set, or
// the binary's base name.
func targetName() string {
	if p := C.fuzzbox_target_name(); p != nil {
		return C.GoString(p)
	}
	return filepath.Base(os.Args[0])
}
