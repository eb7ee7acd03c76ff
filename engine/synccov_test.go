package engine

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// fixedKey is a binary key that is ready, every byte b.
func fixedKey(b byte) *binaryKey {
	k := &binaryKey{done: make(chan struct{}), sum: bytes.Repeat([]byte{b}, 32)}
	close(k.done)
	return k
}

// randomCov is a coverage map of n counters, about one in density set.
func randomCov(r *rand.Rand, n, density int) []byte {
	cov := make([]byte, n)
	for i := range cov {
		if r.IntN(density) == 0 {
			cov[i] = byte(1 << r.IntN(8))
		}
	}
	return cov
}

func TestSparseRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 1000, 70000} {
		for _, density := range []int{1, 2, 50, 100000} {
			cov := randomCov(r, n, density)
			got, err := expandSparse(appendSparse(nil, cov), n)
			if err != nil || !bytes.Equal(got, cov) {
				t.Fatalf("n=%d density=%d: round trip gave %v, %v", n, density, err, got)
			}
		}
	}
	cov := make([]byte, 100)
	cov[99] = 3
	b := appendSparse(nil, cov)
	for _, bad := range [][]byte{b[:len(b)-1], {0x80}, append(b, 0, 1)} {
		if _, err := expandSparse(bad, 100); err == nil {
			t.Errorf("expandSparse(%x, 100) took a bad encoding", bad)
		}
	}
	if _, err := expandSparse(b, 99); err == nil {
		t.Error("expandSparse took an index past the map's end")
	}
}

// TestCovRecords: a reader of the same binary finds what a writer
// recorded, a record cut short once it is whole, and nothing in another
// binary's log or past a bad checksum.
func TestCovRecords(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	const n = 4096
	covA, covB := randomCov(r, n, 30), randomCov(r, n, 30)
	w := covRecords{key: fixedKey(1).get(), covLen: n}
	defer w.close()
	w.record(dir, "00000000000000aa", "0123456789abcdef", appendSparse(nil, covA))

	read := covRecords{key: fixedKey(1).get(), covLen: n}
	defer read.close()
	read.found(dir, covLogPrefix+"00000000000000aa", nil)
	if got := read.coverage("0123456789abcdef", nil); !bytes.Equal(got, covA) {
		t.Fatalf("recorded coverage not found: %v", got != nil)
	}
	if got := read.coverage("0123456789abcdef", nil); got != nil {
		t.Error("a record was taken twice")
	}

	// A record written in two parts: nothing after the first.
	rec := appendCovRecord(nil, append([]byte{0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10}, appendSparse(nil, covB)...))
	f, err := os.OpenFile(filepath.Join(dir, covLogPrefix+"00000000000000aa"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(rec[:len(rec)/2])
	if got := read.coverage("fedcba9876543210", nil); got != nil {
		t.Fatal("half a record was taken")
	}
	f.Write(rec[len(rec)/2:])
	if got := read.coverage("fedcba9876543210", nil); !bytes.Equal(got, covB) {
		t.Fatal("a record completed later was not found")
	}
	// A bad checksum: the log is read no further.
	bad := appendCovRecord(nil, append([]byte{1, 1, 1, 1, 1, 1, 1, 1}, appendSparse(nil, covA)...))
	bad[len(bad)-1] ^= 1
	f.Write(bad)
	f.Write(appendCovRecord(nil, append([]byte{2, 2, 2, 2, 2, 2, 2, 2}, appendSparse(nil, covA)...)))
	if read.coverage("0101010101010101", nil) != nil || read.coverage("0202020202020202", nil) != nil {
		t.Error("a record with a bad checksum, or one after it, was taken")
	}

	// Another binary's log, and a map of another size.
	for i, o := range []covRecords{{key: fixedKey(2).get(), covLen: n}, {key: fixedKey(1).get(), covLen: n + 1}} {
		peer := []string{"00000000000000bb", "00000000000000cc"}[i]
		o.record(dir, peer, "0123456789abcdef", appendSparse(nil, covA[:o.covLen-1]))
		o.close()
		read.found(dir, covLogPrefix+peer, nil)
		if read.coverage("0123456789abcdef", nil) != nil {
			t.Errorf("log %s of another binary or map was taken", peer)
		}
	}

	// Logs of another binary are removed once unwritten for peerGone.
	old := time.Now().Add(-peerGone - time.Minute)
	for _, peer := range []string{"00000000000000aa", "00000000000000bb"} {
		os.Chtimes(filepath.Join(dir, covLogPrefix+peer), old, old)
	}
	ents, _ := os.ReadDir(dir)
	read.prune(dir, ents, time.Now())
	var left []string
	for _, de := range ents {
		if _, err := os.Lstat(filepath.Join(dir, de.Name())); err == nil {
			left = append(left, de.Name())
		}
	}
	if want := []string{".cov-00000000000000aa", ".cov-00000000000000cc"}; !slices.Equal(left, want) {
		t.Errorf("logs left after prune: %q, want %q (this binary's, and another's written lately)", left, want)
	}
}

// TestSyncerRecordedCoverage: two syncers of the same binary hand each
// other's inputs over with their recorded coverage; a syncer of another
// binary gets the same input to run.
func TestSyncerRecordedCoverage(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sync")
	opts := &Options{SyncDir: root, Target: "FuzzX", Types: []reflect.Type{reflect.TypeFor[[]byte]()}}
	const n = 512
	cov := randomCov(rand.New(rand.NewPCG(5, 6)), n, 10)
	a := startSyncer(opts, 10*time.Millisecond, nil, fixedKey(1), n)
	defer a.close(os.Stderr)
	same := startSyncer(opts, 10*time.Millisecond, nil, fixedKey(1), n)
	defer same.close(os.Stderr)
	other := startSyncer(opts, 10*time.Millisecond, nil, fixedKey(2), n)
	defer other.close(os.Stderr)
	data, _ := corpus.Marshal([]byte("found by a"))
	a.out <- syncOut{data: data, cov: appendSparse(nil, cov)}

	news := func(s *syncer) syncNews {
		t.Helper()
		for timeout := time.After(time.Minute); ; {
			select {
			case n := <-s.news:
				if len(n.entries)+len(n.recorded) > 0 {
					return n
				}
			case <-timeout:
				t.Fatal("no news in a minute")
			}
		}
	}
	if got := news(same); len(got.recorded) != 1 || len(got.entries) != 0 ||
		!bytes.Equal(got.recorded[0].e.data, data) || !bytes.Equal(got.recorded[0].cov, cov) {
		t.Errorf("same binary: got %d to run, %d recorded; want the input with its coverage", len(got.entries), len(got.recorded))
	}
	if got := news(other); len(got.entries) != 1 || len(got.recorded) != 0 {
		t.Errorf("another binary: got %d to run, %d recorded; want the input to run", len(got.entries), len(got.recorded))
	}

	// An input of a's cache that another instance published is not
	// recorded again; a new one is, even when it is there.
	there, _ := corpus.Marshal([]byte("published by another"))
	found, _ := corpus.Marshal([]byte("found by a and another"))
	for _, data := range [][]byte{there, found} {
		if _, err := corpus.Write(filepath.Join(root, "FuzzX"), data); err != nil {
			t.Fatal(err)
		}
	}
	a.out <- syncOut{data: there, cov: appendSparse(nil, cov)}
	a.out <- syncOut{data: found, cache: true, cov: appendSparse(nil, cov)}
	a.out <- syncOut{data: []byte("go test fuzz v1\n[]byte(\"last\")\n"), cov: appendSparse(nil, cov)}
	log := filepath.Join(root, "FuzzX", covLogPrefix+a.peer)
	for deadline := time.Now().Add(time.Minute); len(logNames(t, log)) < 3 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if got, want := logNames(t, log), []string{corpus.Name(data), corpus.Name(found)}; !slices.Equal(got[:min(2, len(got))], want) || len(got) != 3 {
		t.Errorf("a's log records %q, want %q and the last input", got, want)
	}
}

// logNames returns the names of the entries a coverage log records.
func logNames(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for first := true; ; first = false {
		payload, rest, err := nextCovRecord(b, maxCovRecord)
		if err != nil || payload == nil {
			return names
		}
		if !first {
			names = append(names, hex.EncodeToString(payload[:8]))
		}
		b = rest
	}
}
