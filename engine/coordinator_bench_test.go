package engine

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"
)

// BenchmarkCoordinatorWorkers runs the coordinator with N fake worker
// processes whose fuzz function does nothing, for a fixed budget of
// executions, and reports executions per second and the coordinator's own
// CPU time (user+system of this process, which is the coordinator alone:
// workers are child processes) per 1,000 executions. It is the baseline
// for the coordinator's redesign (issue 20): at which worker count does the
// coordinator, not the workers, limit the rate? On 2 cores, the workers'
// share of the machine falls as N grows; the coordinator's CPU per
// execution is what carries over to a larger machine.
func BenchmarkCoordinatorWorkers(b *testing.B) {
	for _, n := range []int{2, 8, 32, 128} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			const budget = 20_000_000
			var execs int64
			var cpu, wall time.Duration
			for b.Loop() {
				c, _ := fakeCoordinator(b, "idle", func(o *Options) {
					o.Parallel, o.Limit, o.Duration = n, budget, time.Minute
				})
				before := selfCPU()
				start := time.Now()
				if err := c.run(context.Background()); err != nil {
					b.Fatal(err)
				}
				wall += time.Since(start)
				cpu += selfCPU() - before
				execs += c.execs
			}
			b.ReportMetric(float64(execs)/wall.Seconds(), "execs/s")
			b.ReportMetric(float64(cpu.Microseconds())/(float64(execs)/1000), "coord-µs/1k-execs")
		})
	}
}

// selfCPU returns this process's user and system CPU time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
