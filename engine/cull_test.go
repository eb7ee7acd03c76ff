package engine

import (
	"math/rand/v2"
	"testing"
)

// covOf returns a coverage map of n counters with bucket bit 1 at edges.
func covOf(n int, edges ...int) []byte {
	cov := make([]byte, n)
	for _, i := range edges {
		cov[i] = 1
	}
	return cov
}

func sized(n int) *entry {
	return newEntry([]any{make([]byte, n)}, nil, "", false)
}

func TestCullFavorsASmallSetReachingEveryEdge(t *testing.T) {
	q := newQueue(false)
	a, b, c, d := sized(10), sized(3), sized(20), sized(5)
	q.add(a, covOf(64, 0, 1, 2, 40))
	q.add(b, covOf(64, 1))
	q.add(c, covOf(64, 0, 1, 2, 40)) // a bucket variant of a, larger
	q.add(d, covOf(64, 50))
	q.cull.refresh()
	for _, x := range []struct {
		name string
		e    *entry
		want bool
	}{{"a", a, true}, {"b (its edge is a's too)", b, false}, {"c", c, false}, {"d", d, true}} {
		if x.e.favored != x.want {
			t.Errorf("%s favoured = %v, want %v", x.name, x.e.favored, x.want)
		}
	}
	if c.edges != nil || c.topFor != 0 {
		t.Errorf("c keeps %d edges, top-rated for %d: want none", len(c.edges), c.topFor)
	}
	if b.topFor != 1 || len(b.edges) != 1 {
		t.Errorf("b: top-rated for %d with %d edges kept, want 1 and 1", b.topFor, len(b.edges))
	}
	// A smaller entry for edges 0 and 2 takes them from a; a stays
	// favoured for 40, where it is still top-rated.
	e := sized(1)
	q.add(e, covOf(64, 0, 2))
	q.cull.refresh()
	if !e.favored || !a.favored || a.topFor != 1 {
		t.Errorf("after a smaller entry: e favoured %v, a favoured %v top-rated for %d; want true, true, 1", e.favored, a.favored, a.topFor)
	}
}

func TestRoundRobinMostlySkipsWhatIsNotFavored(t *testing.T) {
	q := newQueue(false)
	var fav []*entry
	for i := range 3 {
		e := sized(1)
		fav = append(fav, e)
		q.add(e, covOf(64, i))
		for range 10 {
			q.add(sized(30), covOf(64, i)) // variants reaching the same edge
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	favPicks := 0
	const picks = 3000
	for range picks {
		e := q.pick(r)
		for _, f := range fav {
			if e == f {
				favPicks++
			}
		}
	}
	// Plain round robin would give the 3 favoured entries 3 picks in 33.
	if favPicks < picks/2 {
		t.Errorf("favoured entries got %d of %d picks, want at least half", favPicks, picks)
	}
	for _, e := range q.entries {
		if e.calls == 0 {
			t.Errorf("an entry of size %d was never picked in %d picks", e.size, picks)
			break
		}
	}
}

func TestNewFavoredEntryIsPickedNext(t *testing.T) {
	q := newQueue(false)
	for i := range 40 {
		q.add(sized(1+i%5), covOf(128, i))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100 { // every entry has had calls
		q.pick(r)
	}
	for k := range 20 {
		for range 7 * k { // the pointer somewhere else each time
			q.pick(r)
		}
		fresh := sized(2)
		q.add(fresh, covOf(128, 64+k))
		got := 0
		for n := 1; n <= 3 && got == 0; n++ {
			if q.pick(r) == fresh {
				got = n
			}
		}
		if got == 0 {
			t.Fatalf("new favoured entry %d was not picked within 3 picks", k)
		}
	}
}

// BenchmarkCullAddAndPick: what culling adds to the loop for each new
// entry (rating its edges) and the pick after it (the favoured set
// recomputed), on a binary of a million counters whose corpus reaches 5,000
// edges, 300 per entry, up to 20k entries.
func BenchmarkCullAddAndPick(b *testing.B) {
	const covLen, pool, perEntry = 1 << 20, 5000, 300
	r := rand.New(rand.NewPCG(5, 6))
	edges := make([]int, pool)
	for i := range edges {
		edges[i] = r.IntN(covLen)
	}
	cov := make([]byte, covLen)
	q := newQueue(false)
	b.ResetTimer()
	for i := range b.N {
		if i%20000 == 0 {
			q = newQueue(false)
		}
		b.StopTimer()
		clear(cov)
		for range perEntry {
			cov[edges[r.IntN(pool)]] = 1
		}
		e := sized(1 + r.IntN(512))
		b.StartTimer()
		q.add(e, cov)
		q.pick(r)
	}
}

// TestImportedEntryDoesNotJumpTheQueue: an input another instance
// published is favoured here when it reaches a new edge, but it had its
// first call there: it waits for its turn in the cycle.
func TestImportedEntryDoesNotJumpTheQueue(t *testing.T) {
	q := newQueue(false)
	for i := range 40 {
		q.add(sized(1), covOf(64, i))
	}
	r := rand.New(rand.NewPCG(7, 8))
	for range 45 {
		q.pick(r)
	}
	e := sized(1)
	e.imported = true
	q.add(e, covOf(64, 63))
	q.cull.refresh()
	if !e.favored || q.cull.pending != 0 {
		t.Fatalf("imported entry: favoured %v, %d pending; want true, 0", e.favored, q.cull.pending)
	}
	for n := 1; n <= 30; n++ {
		if q.pick(r) == e {
			t.Fatalf("imported entry picked after %d picks, before the cycle reached it (35 entries away)", n)
		}
	}
}

// TestRoundRobinComesBackWhileTheCorpusGrows pins the round robin's place as
// a count of steps modulo the corpus's length (queue.next): with an entry
// added after each pick, a cycle in its later rounds comes back to entries
// it just fuzzed instead of going on through the corpus, the chase of the
// frontier that the text parsers of bench/realworld were measured to need.
// Synced instances of odd rank go round by index instead (share.cycles),
// which visits 20 distinct entries here.
func TestRoundRobinComesBackWhileTheCorpusGrows(t *testing.T) {
	for _, tt := range []struct {
		share    share
		min, max int
	}{
		{share{n: 1}, 1, 15},
		{share{rank: 0, n: 2}, 1, 15},
		{share{rank: 1, n: 2}, 20, 20},
		{share{rank: 2, n: 3}, 1, 15},
	} {
		if n := distinctPicksWhileGrowing(tt.share); n < tt.min || n > tt.max {
			t.Errorf("share %+v: 20 picks while the corpus grew by one per pick reached %d distinct entries; want %d to %d", tt.share, n, tt.min, tt.max)
		}
	}
}

// distinctPicksWhileGrowing counts the distinct entries of 20 picks, with
// an entry added after each, in a queue of 20 favoured entries that have
// all had calls.
func distinctPicksWhileGrowing(sh share) int {
	q := newQueue(false)
	q.share = sh
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 20 {
		q.add(sized(1), covOf(256, i)) // each top-rated for its edge: all favoured
	}
	for range 100 { // five rounds: every entry has had calls
		q.pick(r)
	}
	seen := map[*entry]int{}
	for i := range 20 {
		seen[q.pick(r)]++
		q.add(sized(40), covOf(256, i%20)) // a variant: not favoured
	}
	return len(seen)
}

// TestSpliceSampleBounded: a fuzz call's entries for splicing leave out a
// 6-MiB seed and stay within spliceMaxTotal: they travel in every call's
// arguments.
func TestSpliceSampleBounded(t *testing.T) {
	q := newQueue(false)
	q.add(sized(6<<20), covOf(64, 1))
	for i := range 6 {
		q.add(sized(200<<10), covOf(64, 2+i))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		total := 0
		for _, enc := range q.spliceSample(rng, 8) {
			if len(enc) > spliceMaxEntry {
				t.Fatalf("an entry of %d bytes sent for splicing", len(enc))
			}
			total += len(enc)
		}
		if total > spliceMaxTotal {
			t.Fatalf("%d bytes sent for splicing, over %d", total, spliceMaxTotal)
		}
	}
}
