package engine

import (
	"crypto/sha256"
	"math/rand/v2"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// entry is one input of the in-memory corpus.
type entry struct {
	vals []any
	enc  []byte // appendValues encoding, what workers receive
	data []byte // v1 file contents
	path string // file it came from, if any
	seed bool
	// imported marks an input read from the sync directory (another
	// instance's): it is not written back there.
	imported bool
	size     int
	dur      time.Duration // execution time when it was added
	picks    int           // fuzz calls based on it that returned
	finds    int           // of those, calls that found new coverage
	calls    int           // fuzz calls based on it handed out
	favored  bool          // in the favoured set (cull.go)
	topFor   int           // edges it is the top-rated entry of
	edges    []uint32      // its edges, kept while topFor > 0
	// baseCov is its baseline coverage (appendSparse), kept from the
	// baseline until it is published to the sync directory (Options.SyncDir).
	baseCov []byte
}

// newEntry makes an entry of vals. data is the file they were read from,
// or nil to render them (f.Add values, new inputs).
func newEntry(vals []any, data []byte, path string, seed bool) *entry {
	if data == nil {
		data, _ = corpus.Marshal(vals...)
	}
	return &entry{vals: vals, enc: appendValues(nil, vals), data: data, path: path, seed: seed, size: valuesSize(vals)}
}

// picked records a fuzz call based on e.
func (e *entry) picked(found bool) {
	e.picks++
	if found {
		e.finds++
	}
}

// queue is the corpus and its schedule. It is guarded by the coordinator's
// mutex.
//
// Two schedules are implemented. Round robin (native's), culled to the
// favoured entries as AFL culls (cull.go), is the default: on fuzzbox's
// benchmark it found the planted bugs as often and sooner than the power
// schedule (docs/engine.md has the numbers), which
// Options.Schedule = SchedulePower selects: an entry's weight grows with the coverage
// its calls found and shrinks with the calls already spent on it, its size
// and its execution time.
type queue struct {
	entries    []*entry
	roundRobin bool
	// next counts the round robin's steps; the entry looked at is
	// next % len(entries). Unlike an index kept below the length (go
	// test's coordinator), each entry added while the cycle is in its k-th
	// round moves that place k entries back, and each pass of the newest
	// entry wraps to the first: while the corpus grows, the cycle keeps
	// coming back to the newest entries, a chase of the frontier, with
	// jumps back of k entries as the rounds add up. Measured against an
	// index (bench/README.md, "Synced instances are as soon as unsynced
	// ones"): the index finds the planted coupled and grammar two to four
	// times sooner and four of the seven text parsers three to ten times
	// later. No single rule did both (eight tried: bench/README.md, "A
	// deliberate frontier chase"), so a lone instance keeps the count, and
	// synced instances split the two (share.cycles): every other one goes
	// round by index.
	next int
	cull cull
	// held indexes the entries by their content (heldKey), for a find
	// that is an entry again (addFound).
	held   map[[16]byte]*entry
	sumDur time.Duration // of the entries' execution times (those measured)
	nDur   int           // entries with a measured execution time
	share  share         // this instance's part of the round robin when instances sync (peers.go)
}

func newQueue(power bool) *queue {
	return &queue{roundRobin: !power, share: share{n: 1}}
}

func (q *queue) len() int { return len(q.entries) }

// add adds e, whose coverage (bucket bits per counter) is cov, or nil if
// unknown.
func (q *queue) add(e *entry, cov []byte) {
	if e.imported {
		// The instance that published it gave it its first fuzz call: a
		// new favoured entry here is no reason to jump the queue, or
		// every synced instance would fuzz each other's finds first.
		e.calls = max(e.calls, 1)
	}
	q.entries = append(q.entries, e)
	if q.held == nil {
		q.held = map[[16]byte]*entry{}
	}
	q.held[heldKey(e.data)] = e
	if q.roundRobin {
		q.cull.rate(e, cov) // the power schedule does not cull
	}
	if e.dur > 0 {
		q.sumDur += e.dur
		q.nDur++
	}
}

// holding returns the entry whose content is data, or nil.
func (q *queue) holding(data []byte) *entry {
	return q.held[heldKey(data)]
}

// heldKey identifies an entry's content.
func heldKey(data []byte) [16]byte {
	sum := sha256.Sum256(data)
	return [16]byte(sum[:16])
}

// callDuration is how long a fuzz call based on e runs: fuzzCallDuration,
// cut for an entry much slower than the corpus's average, as AFL's
// calculate_score cuts a slow entry's share. Each input that runs a loop
// (a wildcard matcher, a backtracking regexp) a little more often than any
// before is new coverage, and each is slower than the last: with equal
// calls, these entries took most of a run's time and led it into the
// exponential case, away from the fast inputs where other bugs were.
func (q *queue) callDuration(e *entry) time.Duration {
	if q.nDur == 0 || q.sumDur <= 0 || e.dur <= 0 {
		return fuzzCallDuration
	}
	r := float64(e.dur) * float64(q.nDur) / float64(q.sumDur)
	switch {
	case r > 10:
		return fuzzCallDuration / 10
	case r > 4:
		return fuzzCallDuration / 4
	case r > 2:
		return fuzzCallDuration / 2
	case r > 4.0/3:
		return fuzzCallDuration * 3 / 4
	}
	return fuzzCallDuration
}

// ensureNonEmpty keeps the run going when no input added coverage (a
// binary without instrumentation): it falls back to all baseline inputs.
func (q *queue) ensureNonEmpty(inputs []*entry) {
	if len(q.entries) == 0 {
		q.entries = append(q.entries, inputs...)
	}
}

func (q *queue) pick(r *rand.Rand) *entry {
	if q.roundRobin {
		q.cull.refresh()
		for range 100 * len(q.entries) { // a bound: skip gives way at 1 in 100
			if q.next >= len(q.entries) && q.share.cycles() {
				q.next = 0
			}
			e := q.entries[q.next%len(q.entries)]
			q.next++
			if !q.cull.skip(e, len(q.entries), r.IntN(100)) && !q.share.skip(e, r.IntN(shareSkip)) {
				q.cull.called(e)
				return e
			}
		}
		e := q.entries[q.next%len(q.entries)]
		q.cull.called(e)
		return e
	}
	// Sample a few entries and take the heaviest: cheap, and with weights
	// spanning orders of magnitude it approximates weighted sampling.
	best, bw := q.entries[r.IntN(len(q.entries))], -1.0
	for range 4 {
		e := q.entries[r.IntN(len(q.entries))]
		if w := e.weight(); w > bw {
			best, bw = e, w
		}
	}
	if len(q.entries) > 1 && r.IntN(8) == 0 {
		// The newest entry gets extra attention: it is where the frontier is.
		best = q.entries[len(q.entries)-1]
	}
	return best
}

// weight is the entry's share of fuzzing time.
func (e *entry) weight() float64 {
	w := float64(1+4*e.finds) / float64(1+e.picks)
	switch {
	case e.size < 64:
		w *= 2
	case e.size > 4096:
		w /= 2
	}
	if e.dur > time.Millisecond {
		w /= 2
	}
	return w
}

// spliceSample returns the encodings of up to n random entries.
func (q *queue) spliceSample(r *rand.Rand, n int) [][]byte {
	if len(q.entries) < 2 {
		return nil
	}
	out := make([][]byte, 0, n)
	total := 0
	for range n {
		enc := q.entries[r.IntN(len(q.entries))].enc
		if len(enc) > spliceMaxEntry || total+len(enc) > spliceMaxTotal {
			continue
		}
		out = append(out, enc)
		total += len(enc)
	}
	return out
}

// spliceMaxEntry and spliceMaxTotal bound the entries a fuzz call sends
// for splicing, which travel in its JSON arguments: a fuzz test with a
// 6-MiB seed sent it several times in every call, and ran 12.9 execs/s
// (go test, 3,900).
const (
	spliceMaxEntry = 256 << 10
	spliceMaxTotal = 1 << 20
)

// dictionary holds tokens for the mutator: the user's (-dict and the
// target's dictionary file) and, bounded, the operands workers saw in
// traced comparisons (the automatic dictionary).
type dictionary struct {
	user []([]byte)
	auto [][]byte
	seen map[string]bool
	// all is user then auto, as tokens returns it: built on the first
	// call after auto changed (nil since), so that a fuzz call does not
	// copy the dictionary. A slice handed out is never changed: workers
	// read it while the loop goes on.
	all [][]byte
}

const maxAutoTokens = 512

func newDictionary(user [][]byte) *dictionary {
	d := &dictionary{user: user, seen: map[string]bool{}}
	for _, t := range user {
		d.seen[string(t)] = true
	}
	return d
}

func (d *dictionary) add(tokens [][]byte) {
	for _, t := range tokens {
		if len(d.auto) >= maxAutoTokens {
			return
		}
		if len(t) == 0 || len(t) > 64 || d.seen[string(t)] {
			continue
		}
		d.seen[string(t)] = true
		d.auto = append(d.auto, t)
		d.all = nil
	}
}

// full reports whether the automatic dictionary takes no more tokens: the
// baseline then stops tracing its inputs' comparisons (tracing and sending
// the operands took half the baseline of a corpus of 16k expressions).
func (d *dictionary) full() bool { return len(d.auto) >= maxAutoTokens }

// tokens returns all tokens; the slice must not be modified.
func (d *dictionary) tokens() [][]byte {
	if len(d.auto) == 0 {
		return d.user
	}
	if d.all == nil {
		d.all = append(d.user[:len(d.user):len(d.user)], d.auto...)
	}
	return d.all
}
