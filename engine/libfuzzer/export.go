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

	"github.com/fuzzbox/fuzzbox/engine/basedeps"
)

// fuzzboxSetup sets the binary up, or ends the process with the reason: the
// C entry points (shim.go) call it once, before the first input. In the seed
// corpus mode it writes the seeds and exits; in the setup mode it exits.
//
//export fuzzboxSetup
func fuzzboxSetup() {
	timeout := unitTimeout(os.Args[1:]) // before setup replaces the args
	t, err := setup(targetName())
	if err == nil && os.Getenv(typesEnv) != "" {
		if err = t.writeTypes(os.Getenv(typesEnv)); err == nil {
			os.Exit(0)
		}
	}
	if err == nil && os.Getenv(setupEnv) != "" {
		os.Exit(0)
	}
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
	basedeps.StackBallast()
	setupCounters()
	go watchHangs(timeout)
	go serve(t)
}

// fuzzboxWake wakes the goroutine that runs inputs (handoff.go) when the
// engine's thread posts an input and finds it asleep.
//
//export fuzzboxWake
func fuzzboxWake() { wakeServe() }

// report prints testing's report of a failing input.
func (t *target) report(err error) {
	fmt.Fprintf(os.Stderr, "\n--- fuzzbox: %s failed on this input:\n%s\n", t.name, err)
}

// targetName returns the fuzz test's name: the one the link step set, or
// the binary's base name.
func targetName() string {
	if p := C.fuzzbox_target_name(); p != nil {
		return C.GoString(p)
	}
	return filepath.Base(os.Args[0])
}
