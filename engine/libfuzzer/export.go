package libfuzzer

/*
#include <stddef.h>
#include <stdint.h>

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
	"unsafe"
)

// seedsEnv names the environment variable of the seed corpus mode.
const seedsEnv = "FUZZBOX_LIBFUZZER_SEEDS"

// the is the target, set by fuzzboxSetup before the first input.
var the *target

// fuzzboxSetup sets the binary up, or ends the process with the reason: the
// C entry points (shim.go) call it once, before the first input. In the seed
// corpus mode it writes the seeds and exits.
//
//export fuzzboxSetup
func fuzzboxSetup() {
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

// fuzzboxRun runs one input (the engine's bytes, valid during the call) and
// reports whether it failed, after printing testing's report. It runs on the
// engine's thread, to which Go code called from C is locked: the goroutine
// testing starts for the input runs on another thread meanwhile, so each
// input costs two thread wake-ups (BenchmarkInput measures them).
//
//export fuzzboxRun
func fuzzboxRun(data *C.uint8_t, size C.size_t) C.int {
	var in []byte
	if size > 0 {
		in = unsafe.Slice((*byte)(unsafe.Pointer(data)), int(size))
	}
	if err := the.run(in); err != nil {
		fmt.Fprintf(os.Stderr, "\n--- fuzzbox: %s failed on this input:\n%s\n", the.name, err)
		return 1
	}
	return 0
}

// targetName returns the fuzz test's name: the one the link step set, or
// the binary's base name.
func targetName() string {
	if p := C.fuzzbox_target_name(); p != nil {
		return C.GoString(p)
	}
	return filepath.Base(os.Args[0])
}
