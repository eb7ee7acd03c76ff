package engine

import (
	"encoding/binary"
	"slices"
)

// Favoured entries, as AFL culls its queue: for every edge the smallest
// entry reaching it is its top-rated one, and the favoured entries are a
// small set of top-rated ones reaching every edge the corpus reaches (each
// edge's top-rated entry taken, in edge order, unless an entry taken before
// reaches that edge). The round robin skips most other entries (pick), so a
// cycle over the corpus is about as long as the favoured set, however many
// bucket variants of the same edges (a loop run once more) the corpus
// holds, and an entry new to the favoured set is fuzzed soon, whichever
// worker's call comes next.

// cull is the queue's top-rated table and favoured set.
type cull struct {
	top     []*entry // by counter index: the entry top-rated for it, or nil
	rated   []uint32 // the indices of top that are set
	grown   bool     // rated has indices added since it was sorted
	dirty   bool     // top changed since favoured was last computed
	favs    []*entry // the favoured entries
	pending int      // favoured entries not yet picked
	covered []bool   // refresh's scratch: edges a favoured entry reaches
}

// rate makes e top-rated for each edge of cov (bucket bits per counter,
// as a fuzz call's coverage) whose top-rated entry is larger, and keeps
// e's edges while it is top-rated for any.
func (c *cull) rate(e *entry, cov []byte) {
	if len(cov) == 0 {
		return
	}
	if len(c.top) < len(cov) {
		c.top = append(c.top, make([]*entry, len(cov)-len(c.top))...)
	}
	edges := appendEdges(nil, cov)
	for _, i := range edges {
		old := c.top[i]
		if old != nil && old.size <= e.size {
			continue
		}
		if old == nil {
			c.rated, c.grown = append(c.rated, i), true
		} else if old.topFor--; old.topFor == 0 {
			old.edges = nil // as AFL frees an entry's trace_mini
		}
		c.top[i] = e
		e.topFor++
		c.dirty = true
	}
	if e.topFor > 0 {
		e.edges = edges
	}
}

// appendEdges appends the indices of cov's nonzero counters to dst.
func appendEdges(dst []uint32, cov []byte) []uint32 {
	i := 0
	for ; i+8 <= len(cov); i += 8 {
		if binary.LittleEndian.Uint64(cov[i:]) == 0 {
			continue
		}
		for j := i; j < i+8; j++ {
			if cov[j] != 0 {
				dst = append(dst, uint32(j))
			}
		}
	}
	for ; i < len(cov); i++ {
		if cov[i] != 0 {
			dst = append(dst, uint32(i))
		}
	}
	return dst
}

// refresh recomputes the favoured set of entries after the top-rated
// table changed. It visits the edges rated and the favoured entries, not
// the whole corpus or counter map: it runs after each new entry.
func (c *cull) refresh() {
	if !c.dirty {
		return
	}
	c.dirty = false
	for _, e := range c.favs {
		e.favored = false
	}
	c.favs, c.pending = c.favs[:0], 0
	if len(c.covered) < len(c.top) {
		c.covered = make([]bool, len(c.top))
	}
	if c.grown {
		slices.Sort(c.rated) // edge order, as top is indexed
		c.grown = false
	}
	for _, i := range c.rated {
		c.covered[i] = false
	}
	for _, i := range c.rated {
		e := c.top[i]
		if c.covered[i] || e.favored {
			continue
		}
		e.favored = true
		c.favs = append(c.favs, e)
		if e.calls == 0 {
			c.pending++
		}
		for _, j := range e.edges {
			c.covered[j] = true
		}
	}
}

// skip reports whether the round robin passes e by, as AFL's fuzz_one
// does: while favoured entries wait for their first call, every other
// entry is skipped 99 times in 100; then an entry that is not favoured is
// skipped 19 times in 20, or 3 in 4 before its first call. n is the corpus
// size, roll a random number in [0, 100).
func (c *cull) skip(e *entry, n, roll int) bool {
	if len(c.favs) == 0 {
		return false // no coverage known (a binary without counters)
	}
	if c.pending > 0 {
		return (e.calls > 0 || !e.favored) && roll < 99
	}
	if e.favored || n <= 10 {
		return false
	}
	if e.calls == 0 {
		return roll < 75
	}
	return roll < 95
}

// called records that a fuzz call based on e was handed out.
func (c *cull) called(e *entry) {
	if e.calls == 0 && e.favored {
		c.pending--
	}
	e.calls++
}
