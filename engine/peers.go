package engine

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Synced instances share the round robin. Each instance that syncs through
// a directory fuzzes the union of the instances' corpora, and one worker
// cycling through all of it returns to an entry as seldom as a lone
// instance of one worker does: on bench/targets/coupled two synced
// instances needed as long as one instance of one worker, where one
// instance of two workers, whose round robin both workers advance, needed
// half that (bench/README.md, "Corpus sync"). So each instance gives the
// inputs it imported one in shareSkip of their turns (the instance that
// found one fuzzes it as its own), and no input is left to an instance
// that may not have it (an import is in its finder's corpus; an input of
// this instance's cache is its own). The seeds, which every instance has,
// keep every turn in each.
//
// Synced instances also split the round robin's two ways of going round
// (queue.next): instances of odd rank go round by index, the others keep
// the count's chase of the newest entries, as AFL++ advises giving its
// secondary instances different schedules. Planted bugs that need calls
// spread over the corpus (coupled, grammar) are found sooner by an index,
// the text parsers' by the chase (bench/README.md, "Synced instances go
// round two ways"). Before the two ways, the seeds were shared out among
// the instances by a hash of their contents; with the two ways, keeping
// every seed's turns in both was sooner on six of eight targets (coupled
// 2.15 to 1.27 s, checksum 0.94 to 0.40 s) and later on hclparse and
// iniload.
//
// To know how many they are and their ranks, instances announce themselves
// in the directory (an empty file .peer-<name>, its time renewed at each
// listing, at most every beatEvery and at least every syncEvery, and
// counted by the others at once where they watch the directory: newPeer);
// a peer file not renewed for peerStale is not counted, so the ranks are dealt
// again without an instance that stopped, and one not renewed for peerGone
// (a killed instance's) is removed. An entry's first call is never skipped.
// Stats events report the number of instances.

// peerPrefix starts the name of an instance's file in the sync directory:
// hidden, so that no instance reads it as an input.
const peerPrefix = ".peer-"

// peerStale is how long a peer file may go unrenewed and still count: three
// of the longest waits between two listings.
const peerStale = 3 * syncEvery

// peerGone is how long a peer file may go unrenewed before an instance
// removes it: a killed instance's file, which would otherwise stay.
const peerGone = 20 * peerStale

// beatEvery is how often, at most, an instance renews its peer file and
// counts the others': listings come up to every 250 ms while corpora grow,
// and each renewal is a write and a stat per peer (round trips on a network
// file system).
const beatEvery = time.Second

// shareSkip: an input of another instance's share gets one in shareSkip of
// its turns.
const shareSkip = 4

// share is an instance's part of the round robin: rank among n instances
// alive.
type share struct{ rank, n int }

// instances is what stats events report: n, or 0 for a lone instance.
func (s share) instances() int {
	if s.n <= 1 {
		return 0
	}
	return s.n
}

// cycles reports whether this instance goes round the corpus by index
// (back to the first entry after the last) rather than by the count of
// steps modulo the corpus's length (queue.pick): synced instances of odd
// rank do, so that two instances do not chase the same entries.
func (s share) cycles() bool { return s.n > 1 && s.rank%2 == 1 }

// skip reports whether a turn of e, which had its first call, is skipped
// (roll, in [0, shareSkip), is not 0): e was imported from another
// instance.
func (s share) skip(e *entry, roll int) bool {
	return s.n > 1 && e.calls > 0 && roll != 0 && e.imported
}

// newPeerName returns a random name for this instance.
func newPeerName() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// heartbeat renews this instance's peer file and computes its share from
// the peer files of the listing ents, handing a changed share to the loop.
// Peer files are renewed by truncating them, so that their times are the
// file system's (a network file system's server's), and compared with
// this instance's own: the machines' clocks need not agree.
func (s *syncer) heartbeat(ents []os.DirEntry) {
	if time.Since(s.beat) < beatEvery {
		return
	}
	s.beat = time.Now()
	path := filepath.Join(s.dir, peerPrefix+s.peer)
	if err := os.WriteFile(path, nil, 0o666); err != nil {
		return // the listing worked: the next write reports what fails
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return
	}
	now := fi.ModTime()
	names := []string{s.peer}
	for _, de := range ents {
		name, ok := strings.CutPrefix(de.Name(), peerPrefix)
		if !ok || name == s.peer {
			continue
		}
		fi, err := de.Info()
		switch {
		case err != nil:
		case now.Sub(fi.ModTime()) < peerStale:
			names = append(names, name)
		case now.Sub(fi.ModTime()) > peerGone:
			os.Remove(filepath.Join(s.dir, de.Name()))
		}
	}
	s.recs.prune(s.dir, ents, now)
	slices.Sort(names)
	s.peers = names
	sh := share{rank: slices.Index(names, s.peer), n: len(names)}
	if sh != s.share {
		s.share = sh
		s.held.share = &sh
	}
}

// newPeer takes the watch's report of the file name: a peer file of an
// instance not counted yet makes this one count the instances again at
// once rather than at its next heartbeat (up to beatEvery later). Two
// instances started together each write their peer file at their first
// listing, so the first to list does not see the other's; without this it
// went on alone, with every turn for imports and no share, for the first
// second, in which a text parser's bug is often found.
func (s *syncer) newPeer(name string) {
	p, ok := strings.CutPrefix(name, peerPrefix)
	if !ok || slices.Contains(s.peers, p) {
		return
	}
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return // the next scan reports what fails
	}
	s.beat = time.Time{}
	s.heartbeat(ents)
}

// leave removes this instance's peer file: the others take its share at
// their next listing.
func (s *syncer) leave() {
	os.Remove(filepath.Join(s.dir, peerPrefix+s.peer))
}
