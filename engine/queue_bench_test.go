package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// The engine as it grows (issue 20; bench/README.md "The engine as it
// grows"). BenchmarkCorpusGrowth measures, with the corpus at 1k, 10k and
// 100k entries, what the loop does per fuzz call (pick, spliceSample,
// callDuration, lens.limit, dict.tokens) and per new entry (add; and, with
// coverage maps of 64k and 1M counters, mergeBits, snapshot and the stats
// events' countEdges). A cost that grows with the corpus is a bug: the loop
// makes these calls for every fuzz call of every worker. BenchmarkCorpusMemory
// reports the heap each entry holds.
//
//	go test -run='^$' -bench='Corpus(Growth|Memory)' ./engine

// growthSizes are the corpus sizes measured.
var growthSizes = []int{1_000, 10_000, 100_000}

// growthCovLens are the coverage map sizes measured: a small target's
// binary (the standard library is instrumented too) and a large one's.
var growthCovLens = []int{1 << 16, 1 << 20}

// A growthFixture is a loop's corpus-related state at one corpus size.
type growthFixture struct {
	q    *queue // power schedule: its pick is the costlier
	rr   *queue // the same entries, round robin
	lens lenControl
	dict *dictionary
	rng  *rand.Rand
}

// growthFixtures caches fixtures by size: building 100k entries takes a
// while, and each sub-benchmark runs several times.
var growthFixtures = map[int]*growthFixture{}

func growthFixtureOf(n int) *growthFixture {
	if f := growthFixtures[n]; f != nil {
		return f
	}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	f := &growthFixture{q: newQueue(true), rr: newQueue(false), dict: realisticDict(rng), rng: rng}
	for _, e := range realisticEntries(rng, n) {
		f.q.add(e, nil)
		f.rr.add(e, nil)
	}
	f.lens.limit(f.q, f.q.entries[0], 0) // start: its one scan of the corpus
	growthFixtures[n] = f
	return f
}

// realisticEntries returns n entries as a fuzz run finds them: one []byte
// of 100 to 500 bytes, mostly text, with measured execution times and
// schedule counts.
func realisticEntries(rng *rand.Rand, n int) []*entry {
	es := make([]*entry, n)
	for i := range es {
		e := newEntry([]any{realisticInput(rng)}, nil, "", false)
		e.dur = time.Duration(10_000 + rng.IntN(500_000))
		e.picks, e.finds = rng.IntN(100), rng.IntN(5)
		es[i] = e
	}
	return es
}

const textBytes = "abcdefghijklmnopqrstuvwxyz0123456789 =[]{}\".,\n#_-"

func realisticInput(rng *rand.Rand) []byte {
	b := make([]byte, 100+rng.IntN(401))
	for i := range b {
		if rng.IntN(10) == 0 {
			b[i] = byte(rng.IntN(256))
		} else {
			b[i] = textBytes[rng.IntN(len(textBytes))]
		}
	}
	return b
}

// realisticDict is a dictionary with 200 source literals and a full
// automatic dictionary.
func realisticDict(rng *rand.Rand) *dictionary {
	var user [][]byte
	for range 200 {
		user = append(user, realisticInput(rng)[:2+rng.IntN(12)])
	}
	d := newDictionary(user)
	for len(d.auto) < maxAutoTokens {
		d.add([][]byte{realisticInput(rng)[:1+rng.IntN(16)]})
	}
	return d
}

// realisticCoverage returns a coverage map of covLen counters of which an
// input sets a few hundred, in runs (as one function's blocks are).
func realisticCoverage(rng *rand.Rand, covLen int) []byte {
	cov := make([]byte, covLen)
	for range 40 {
		at := rng.IntN(covLen - 16)
		for j := range 1 + rng.IntN(16) {
			cov[at+j] = 1 << rng.IntN(8)
		}
	}
	return cov
}

func BenchmarkCorpusGrowth(b *testing.B) {
	for _, n := range growthSizes {
		b.Run(fmt.Sprintf("corpus=%dk", n/1000), func(b *testing.B) {
			f := growthFixtureOf(n)
			benchPerCall(b, f, n)
			benchPerEntry(b, f, n)
		})
	}
}

// benchPerCall measures what fuzzWork does for every fuzz call.
func benchPerCall(b *testing.B, f *growthFixture, n int) {
	cpuBench(b, "pick=power", func(int) { f.q.pick(f.rng) })
	cpuBench(b, "pick=roundrobin", func(int) { f.rr.pick(f.rng) })
	cpuBench(b, "spliceSample", func(int) { f.q.spliceSample(f.rng, 8) })
	cpuBench(b, "callDuration", func(i int) { f.q.callDuration(f.q.entries[i%n]) })
	cpuBench(b, "lens.limit", func(i int) { f.lens.limit(f.q, f.q.entries[i%n], int64(i)*1000) })
	cpuBench(b, "dict.tokens", func(int) { f.dict.tokens() })
}

// benchPerEntry measures what the loop does for every new corpus entry
// (and, for countEdges, every stats event).
func benchPerEntry(b *testing.B, f *growthFixture, n int) {
	q := &queue{entries: f.q.entries[:n:n]} // a copy to add to: f.q stays as it is
	cpuBench(b, "add", func(int) {
		q.add(f.q.entries[0], nil)
		q.entries = q.entries[:n] // the same size each time
	})
	for _, covLen := range growthCovLens {
		global := realisticCoverage(f.rng, covLen)
		cov := realisticCoverage(f.rng, covLen)
		// mergeBits scans all of cov whether or not its bits are new:
		// after the first merge, the same scan finds none.
		seen := append([]byte(nil), global...)
		cpuBench(b, fmt.Sprintf("cov=%dk/mergeBits", covLen>>10), func(int) { mergeBits(seen, cov) })
		c := &coordinator{global: global}
		cpuBench(b, fmt.Sprintf("cov=%dk/snapshot", covLen>>10), func(int) {
			c.snap = nil // global changed
			c.snapshot()
		})
		cpuBench(b, fmt.Sprintf("cov=%dk/countEdges", covLen>>10), func(int) { countEdges(global) })
	}
}

// cpuBench runs fn(i) for i = 0, 1, ... as sub-benchmark name and reports the process's CPU time per call
// (cpu-ns/op, user+system, so the garbage collector's work counts) beside
// ns/op: on a machine shared with other work the wall clock per call
// measures the load as much as the code.
func cpuBench(b *testing.B, name string, fn func(i int)) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		cpu := selfCPU()
		for i := 0; b.Loop(); i++ {
			fn(i)
		}
		b.ReportMetric(float64(selfCPU()-cpu)/float64(b.N), "cpu-ns/op")
	})
}

// BenchmarkCorpusMemory reports the heap the corpus holds per entry
// (B/entry) next to the input's own size (input-B/entry): an entry keeps
// its values, their encoding for workers and its file contents.
func BenchmarkCorpusMemory(b *testing.B) {
	for _, n := range growthSizes {
		b.Run(fmt.Sprintf("corpus=%dk", n/1000), func(b *testing.B) {
			var perEntry, input float64
			for b.Loop() {
				rng := rand.New(rand.NewPCG(uint64(n), 7))
				before := heapInUse()
				q := newQueue(false)
				size := 0
				for _, e := range realisticEntries(rng, n) {
					q.add(e, nil)
					size += e.size
				}
				perEntry = float64(heapInUse()-before) / float64(n)
				input = float64(size) / float64(n)
				runtime.KeepAlive(q)
			}
			b.ReportMetric(perEntry, "B/entry")
			b.ReportMetric(input, "input-B/entry")
		})
	}
}

// heapInUse returns the live heap after a collection.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// BenchmarkLoopRetainedHeap runs the loop with two simulated workers (as
// BenchmarkLoop) for 100k and 1M fuzz calls that find nothing new and
// reports the heap the coordinator holds after them (retained-B): the same
// for both means nothing the loop keeps grows per fuzz call.
func BenchmarkLoopRetainedHeap(b *testing.B) {
	for _, calls := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("calls=%dk", calls/1000), func(b *testing.B) {
			var retained int64
			for b.Loop() {
				before := heapInUse()
				c := loopCalls(b, calls)
				retained = heapInUse() - before
				runtime.KeepAlive(c)
			}
			b.ReportMetric(float64(retained), "retained-B")
		})
	}
}

// loopCalls runs a coordinator's loop with two simulated workers for calls
// fuzz calls, none finding new coverage, and returns the coordinator.
func loopCalls(b *testing.B, calls int) *coordinator {
	c, run := simulatedLoop(b, 2, 1<<16, math.MaxInt, int64(calls))
	defer c.cancel()
	run()
	return c
}
