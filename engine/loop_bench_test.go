package engine

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkLoop measures the coordinator's loop alone: N simulated worker
// goroutines (no process, no fuzz function) answer each fuzz call at once,
// one in 100 of them (or every one) with an input whose coverage adds a bucket bit,
// so the corpus grows and the coverage snapshot is copied again, as early
// in a real run. It reports the results the loop takes in per second and
// the process's CPU time per result (the simulated workers do next to
// nothing, so it is the loop's and the channels'). A real worker sends one
// result per fuzz call: 5 a second at the 200 ms call duration, more when
// calls end early on new coverage or failures. So results/s divided by 5 is
// the number of workers at which the loop would be the limit.
func BenchmarkLoop(b *testing.B) {
	for _, covLen := range []int{1 << 16, 1 << 20} {
		for _, newEvery := range []int{100, 1} {
			for _, n := range []int{2, 8, 32, 128} {
				b.Run(fmt.Sprintf("edges=%dk/new=%d%%/workers=%d", covLen>>10, 100/newEvery, n), func(b *testing.B) {
					benchLoop(b, n, covLen, newEvery)
				})
			}
		}
	}
}

func benchLoop(b *testing.B, workers, covLen, newEvery int) {
	c, run := simulatedLoop(b, workers, covLen, newEvery, int64(b.N))
	defer c.cancel()
	cpu := selfCPU()
	b.ResetTimer()
	start := time.Now()
	n := run()
	wall := time.Since(start)
	b.StopTimer()
	cpu = selfCPU() - cpu
	b.ReportMetric(float64(n)/wall.Seconds(), "results/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/result")
	b.ReportMetric(float64(c.corpus.len()), "corpus")
}

// simulatedLoop makes a coordinator whose loop is served by workers
// simulated workers (simulatedWorker) until total results, and returns it
// with the function that runs the loop and returns the results it took in.
// The caller cancels c when done.
func simulatedLoop(b *testing.B, workers, covLen, newEvery int, total int64) (c *coordinator, run func() int64) {
	c, err := newCoordinator(Options{
		Target: "FuzzBench", Parallel: workers,
		Types: []reflect.Type{reflect.TypeOf([]byte(nil))},
		Log:   io.Discard, Events: io.Discard,
	})
	if err != nil {
		b.Fatal(err)
	}
	c.covLen, c.global = covLen, make([]byte, covLen)
	c.inputs = []*entry{newEntry([]any{[]byte("seed")}, nil, "seed#0", true)}
	c.hard, c.cancel = context.WithCancel(context.Background())
	ctx, finish := context.WithCancel(c.hard)
	c.finish = finish
	var results, bit atomic.Int64
	msgs := make(chan message)
	for i := range workers {
		go simulatedWorker(newWorker(c.setup, i, msgs), covLen, newEvery, total, &results, &bit, finish)
	}
	return c, func() int64 {
		c.loop(ctx, msgs, workers)
		return results.Load()
	}
}

// simulatedWorker answers the loop's work at once until it is stopped, and
// stops the run after total results over all workers.
func simulatedWorker(w *worker, covLen, newEvery int, total int64, results, bit *atomic.Int64, finish func()) {
	rng := rand.New(rand.NewPCG(uint64(w.id), 1))
	cov := make([]byte, covLen)
	defer w.send(gone{})
	var done any = ready{}
	for {
		w.send(done)
		wk, ok := <-w.work
		if !ok {
			return
		}
		if wk.baseline != nil {
			done = ranBaseline{e: wk.baseline, cov: cov}
			continue
		}
		w.count(1000)
		d := fuzzed{base: wk.base, unused: wk.args.Limit}
		if rng.IntN(newEvery) == 0 {
			// A bucket bit nobody reached: spread over the map.
			i := int(bit.Add(1)) * 7919 % (covLen * 8)
			clear(cov)
			cov[i/8] = 1 << (i % 8)
			d.found, d.adds = true, []foundInput{{newEntry([]any{[]byte{byte(i), byte(i >> 8)}}, nil, "", false), cov, nil}}
		}
		done = d
		if results.Add(1) == total {
			finish()
		}
	}
}
