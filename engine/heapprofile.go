package engine

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

// heapProfileEnv names a file the coordinator writes heap profiles to: a
// debugging aid for the coordinator's memory over a long run (docs/engine.md,
// bench/README.md "The engine as it grows"), not a setting users need. The
// environment reaches the coordinator through the driver and go test alike.
const heapProfileEnv = "FUZZBOX_COORDINATOR_HEAPPROFILE"

// heapProfileRate is runtime.MemProfileRate while the coordinator profiles
// its heap: one sample per 4 KiB allocated, where the default (512 KiB)
// leaves a coordinator's few MiB of heap with a handful of samples.
// Allocations made before Coordinate started were sampled at the default
// rate and are under-counted.
const heapProfileRate = 4 << 10

// heapProfileEvery is how often the coordinator writes a heap profile when
// heapProfileEnv is set.
const heapProfileEvery = time.Minute

// profileHeap writes a heap profile of this process to path.NNN (NNN the
// minutes since the start, three digits) every heapProfileEvery, until the
// returned function is called, which writes the last one to path itself. A
// profile that cannot be written is reported to log once and ends the
// profiling.
func profileHeap(path string, log io.Writer) (stop func()) {
	runtime.MemProfileRate = heapProfileRate
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(heapProfileEvery)
		defer tick.Stop()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-tick.C:
				if err := writeHeapProfile(fmt.Sprintf("%s.%03d", path, n)); err != nil {
					fmt.Fprintf(log, "fuzz: warning: %v\n", err)
					return
				}
			}
		}
	}()
	return func() {
		close(done)
		<-exited
		if err := writeHeapProfile(path); err != nil {
			fmt.Fprintf(log, "fuzz: warning: %v\n", err)
		}
	}
}

// writeHeapProfile writes the heap profile as of a garbage collection run
// now, so that its in-use figures are the live heap at this moment.
func writeHeapProfile(path string) error {
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	err = pprof.Lookup("heap").WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("heap profile %s: %w", path, err)
	}
	return nil
}

// cpuProfileEnv names a file prefix the coordinator and each worker process
// write their CPU profiles to (path.coordinator.<pid>, path.worker.<pid>,
// written when the process's part ends): a debugging aid for where the time
// goes on a target (bench/README.md, "Text-format parsers"), not a setting
// users need.
const cpuProfileEnv = "FUZZBOX_CPUPROFILE"

// profileCPU starts this process's CPU profile, named by role, when
// cpuProfileEnv is set, and returns the function that ends it. A profile
// that cannot be started is skipped: profiling must not stop fuzzing.
func profileCPU(role string) (stop func()) {
	path := os.Getenv(cpuProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(fmt.Sprintf("%s.%s.%d", path, role, os.Getpid()))
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
