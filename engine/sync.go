package engine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/event"
)

// Corpus sync between instances (Options.SyncDir): each instance writes the
// inputs that add coverage for it to <SyncDir>/<Target>/, under their
// content's name (corpus.Batch: atomic, the same input written twice is the
// same file), and every few seconds reads the files there it has not seen.
// A file that is not a go test fuzz v1 entry of the fuzz test's types is
// skipped with a warning; the others run on a worker as the baseline's
// inputs do and join the corpus (and this instance's cache, linked from
// their files there: syncOut) when they add coverage here, as AFL's -M/-S
// instances sync their queues. A sync
// directory that cannot be read or written is reported once, until it works
// again; fuzzing goes on either way, and when it is back, the instance
// publishes its corpus there again.
//
// The directory is the syncer's: its goroutine does every write, listing
// and read, so that a slow shared file system (NFS) does not stall the loop,
// which only sends it entries to publish and takes what its scans found.
// The loop waits only when cacheQueue entries wait to be published.
// Where the system reports new files (inotify: engine/syncwatch_linux.go),
// the syncer reads each as it appears, between its scans. At each scan it
// renews this instance's peer file and works out its share of the round
// robin (peers.go).

// syncEvery is the longest the syncer waits between two reads of the sync
// directory, and syncSoon the shortest: it reads again after syncSoon while
// its reads find other instances' inputs or this instance publishes, and
// doubles the wait after each read that found nothing. A parser's corpus
// grows every few executions at the start of a run; with a fixed 5-s scan,
// two synced instances fuzzed mostly apart then (bench/README.md, "Corpus
// sync"). Listing a directory of a few thousand names costs a few
// milliseconds, on the syncer's goroutine, not the loop's.
const (
	syncEvery = 5 * time.Second
	syncSoon  = 250 * time.Millisecond
)

// syncer writes and reads the sync directory from a goroutine of its own.
// The loop owns the value; the fields below the channels are the
// goroutine's alone.
type syncer struct {
	root, dir string         // SyncDir and SyncDir/<Target>
	types     []reflect.Type // the fuzz test's arguments
	every     time.Duration  // the longest wait between two reads of the directory
	out       chan syncOut   // entries to publish (loop → syncer); closed to stop it
	cache     *cacheWriter   // the cache the syncer hands new entries to (syncOut.cache), nil when none
	news      chan syncNews  // what the scans found (syncer → loop)
	done      chan struct{}  // closed when the goroutine has returned

	seen    map[string]bool // names read or written
	mine    [][]byte        // the entries this instance published, to publish again
	watch   *dirWatch       // the directory's new files, nil when not watched
	broken  bool            // the last access failed (reported)
	probing bool            // works is trying the directory again: a failure is not reported again
	again   bool            // the directory is back after a failure, or was made again: publish mine again
	held    syncNews        // not yet taken by the loop
	batch   corpus.Batch    // the entries published, synced every flushEvery
	peer    string          // this instance's name among the peers (peers.go)
	peers   []string        // the peers counted at the last heartbeat, sorted (this one's included)
	share   share           // the last share handed to the loop
	beat    time.Time       // when heartbeat last renewed the peer file
	recs    covRecords      // the coverage logs (synccov.go)
}

// A syncOut is an entry to publish. When cache is set, the entry is new
// and the syncer also has it written to the instance's cache, linked from
// the file it published where the file system allows (corpus.Batch.Link):
// a new file costs a virtual machine's disk 0.3 ms of CPU, which, three
// times per entry (the finder's cache and sync directory, the importer's
// cache), took a quarter of two synced instances' processors in the first
// seconds of a text parser's run, where one instance of two workers writes
// once per entry (bench/README.md, "Corpus sync: one new file per entry").
type syncOut struct {
	data  []byte
	cache bool
	cov   []byte // its coverage here (appendSparse), to record; nil when not known
}

// syncNews is what the syncer hands the loop.
type syncNews struct {
	entries  []*entry  // other instances' inputs, valid and not seen before, to run here
	recorded []withCov // other instances' inputs with their recorded coverage
	warnings []string  // files skipped; the directory failing, working again
	share    *share    // this instance's share of the corpus, when it changed
}

// withCov is another instance's input and the coverage it recorded for it
// (synccov.go), which this instance takes without running it.
type withCov struct {
	e   *entry
	cov []byte
}

func (n *syncNews) empty() bool {
	return len(n.entries) == 0 && len(n.recorded) == 0 && len(n.warnings) == 0 && n.share == nil
}

// startSyncer starts the syncer of opts.SyncDir, which creates its
// directory, reads it at once and then every so often (at most every, at
// least syncSoon apart: syncEvery in a run); it returns nil when not
// syncing. With key, the syncer records the coverage of what it publishes
// and takes the coverage other instances of the same binary recorded
// (synccov.go), coverage maps of covLen counters.
func startSyncer(opts *Options, every time.Duration, cache *cacheWriter, key *binaryKey, covLen int) *syncer {
	if opts.SyncDir == "" {
		return nil
	}
	s := &syncer{root: opts.SyncDir, dir: syncEntries(opts), types: opts.Types, every: every,
		out: make(chan syncOut, cacheQueue), cache: cache, news: make(chan syncNews), done: make(chan struct{}), seen: map[string]bool{},
		peer: newPeerName(), share: share{n: 1}, recs: covRecords{covLen: covLen}}
	go s.run(key)
	return s
}

// run is the syncer's goroutine; key is this binary's (nil when not
// recording coverage), which run waits for before its first read.
func (s *syncer) run(key *binaryKey) {
	defer close(s.done)
	defer s.recs.close()
	defer func() { s.watch.close() }()
	defer s.leave()
	defer s.flush()
	flush := time.NewTicker(flushEvery)
	defer flush.Stop()
	if err := os.MkdirAll(s.dir, 0o777); err != nil {
		s.failed("creating", err)
	}
	if s.recs.covLen > 0 {
		s.recs.key = key.get()
	}
	wait := s.nextWait(s.every, s.scan() > 0)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	wrote := false // since the last read
	for {
		var news chan<- syncNews // nil (never ready) when there is nothing to tell
		if !s.held.empty() {
			news = s.news
		}
		select {
		case o, ok := <-s.out:
			if !ok {
				return
			}
			s.write(o)
			wrote = true
			if wait > s.soon() {
				// This instance's corpus grows: the others' likely does too.
				wait = s.soon()
				timer.Reset(wait)
			}
		case news <- s.held:
			s.held = syncNews{}
		case name, ok := <-s.watchC():
			if s.watched(name, ok) && wait > s.soon() {
				wait = s.soon()
				timer.Reset(wait)
			}
		case <-flush.C:
			s.flush()
		case <-timer.C:
			wait = s.nextWait(wait, s.scan() > 0 || wrote)
			wrote = false
			timer.Reset(wait)
		}
	}
}

// watchC is the channel of the names the watch reports, nil when there is
// no watch.
func (s *syncer) watchC() <-chan string {
	if s.watch == nil {
		return nil
	}
	return s.watch.names
}

// watched reads the file the watch reported (ok false: the watch ended).
// It reports whether the directory needs a read soon: it found an entry or
// a warning, or the watch lost track (the directory was removed, or names
// were missed), which the next scan mends by reading it whole and
// watching it again. That read is not at once: whoever removes the
// directory may not be done.
func (s *syncer) watched(name string, ok bool) bool {
	if !ok {
		s.watch.close()
		s.watch = nil
		return true
	}
	if strings.HasPrefix(name, covLogPrefix) && name != covLogPrefix+s.peer {
		s.recs.found(s.dir, name, s.seen)
	}
	s.newPeer(name)
	return s.take(name) || s.watch.lost.Load()
}

// nextWait is the wait before the next read of the directory: syncSoon
// after a read that found something or while this instance publishes,
// twice the last wait otherwise, at most s.every.
func (s *syncer) nextWait(last time.Duration, busy bool) time.Duration {
	if busy {
		return s.soon()
	}
	return min(2*last, s.every)
}

// soon is the shortest wait between two reads: syncSoon, or s.every when
// that is shorter (the tests').
func (s *syncer) soon() time.Duration { return min(syncSoon, s.every) }

// write publishes one entry, and has a new one cached. While the directory
// is broken it only keeps it: it is published when the directory is back.
func (s *syncer) write(o syncOut) {
	name := corpus.Name(o.data)
	s.seen[name] = true
	s.mine = append(s.mine, o.data)
	src := ""
	if o.cov != nil && !s.broken && (o.cache || !s.there(name)) {
		// Before the entry, so that whoever reads it finds the record.
		// An entry of the cache another instance published is not
		// recorded again: each instance publishes its whole cache.
		s.recs.record(s.dir, s.peer, name, o.cov)
	}
	if !s.broken && s.put(o.data) {
		src = filepath.Join(s.dir, name)
	}
	if o.cache && s.cache != nil {
		s.cache.save(o.data, src)
	}
}

// there reports whether the directory has the entry name.
func (s *syncer) there(name string) bool {
	_, err := os.Lstat(filepath.Join(s.dir, name))
	return err == nil
}

// put writes one entry into the directory, reporting whether it is there.
func (s *syncer) put(data []byte) bool {
	_, err := os.Stat(s.dir) // a write would make a removed directory again
	if err == nil {
		_, err = s.batch.Write(s.dir, data)
	}
	if err != nil {
		s.failed("writing to", err)
	}
	return err == nil
}

// scan reads the directory's files it has not seen, reporting how many it
// read. It watches the directory first, when it is not watched.
func (s *syncer) scan() int {
	if _, err := os.Stat(s.dir); errors.Is(err, fs.ErrNotExist) {
		if err = s.remake(); err != nil {
			s.failed("reading", err)
			return 0
		}
	}
	s.rewatch()
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		s.failed("reading", err)
		return 0
	}
	if !s.works() {
		return 0 // readable, not writable: still broken, said once
	}
	if s.again {
		s.again = false
		for i := 0; i < len(s.mine) && !s.broken; i++ {
			s.put(s.mine[i])
		}
	}
	s.heartbeat(ents)
	for _, de := range ents {
		if name := de.Name(); strings.HasPrefix(name, covLogPrefix) && name != covLogPrefix+s.peer {
			s.recs.found(s.dir, name, s.seen)
		}
	}
	n := 0
	for _, de := range ents {
		if de.Type().IsRegular() && s.take(de.Name()) {
			n++
		}
	}
	return n
}

// rewatch watches the directory when it is not watched or the watch lost
// track of it.
func (s *syncer) rewatch() {
	if s.watch != nil && !s.watch.lost.Load() {
		return
	}
	s.watch.close()
	s.watch = watchDir(s.dir)
}

// take reads the file name of the directory, unless it was seen or is
// hidden (a write in progress), and holds it for the loop: the entry, or a
// warning when it is not one. It reports whether it read the file.
func (s *syncer) take(name string) bool {
	if s.seen[name] || strings.HasPrefix(name, ".") {
		return false
	}
	path := filepath.Join(s.dir, name)
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	cov := s.recs.coverage(name, s.seen) // before seen: the record of name is kept
	s.seen[name] = true
	e, err := s.read(path)
	switch {
	case err != nil:
		s.held.warnings = append(s.held.warnings, fmt.Sprintf("sync: skipping %s: %v", name, err))
	case cov != nil:
		s.held.recorded = append(s.held.recorded, withCov{e, cov})
	default:
		s.held.entries = append(s.held.entries, e)
	}
	return true
}

// remake makes the directory again, which was removed, when the sync
// directory itself is there.
func (s *syncer) remake() error {
	if _, err := os.Stat(s.root); err != nil {
		return err
	}
	if err := os.Mkdir(s.dir, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	s.again = true
	s.recs.reset()
	return nil
}

// read reads one file of the directory as a corpus entry.
func (s *syncer) read(path string) (*entry, error) {
	ce, err := corpus.ReadFile(path, s.types)
	if err != nil {
		return nil, err
	}
	e := newEntry(ce.Values, ce.Data, path, false)
	e.imported = true
	return e, nil
}

// flush syncs what the batch wrote; a failure (an I/O error: a file lost
// with a removed directory is none) is reported as failed reports one.
func (s *syncer) flush() {
	if err := s.batch.Flush(); err != nil {
		s.failed("syncing files to", err)
	}
}

// failed reports the first failure to use the directory.
func (s *syncer) failed(what string, err error) {
	if !s.broken {
		s.broken = true
		if !s.probing {
			s.held.warnings = append(s.held.warnings, fmt.Sprintf("sync: %s %s failed, fuzzing goes on without it: %v", what, s.dir, err))
		}
	}
}

// works checks, after a failure, that the directory works again: that the
// entries this instance published go in again; it reports so and returns
// true, or false while they do not. A directory that could be read but
// not written (a full file system) was said to work again at every scan
// and to fail at the next write, two warnings a second.
func (s *syncer) works() bool {
	if !s.broken {
		return true
	}
	s.broken, s.probing = false, true
	for i := 0; i < len(s.mine) && !s.broken; i++ {
		s.put(s.mine[i])
	}
	s.probing = false
	if s.broken {
		return false
	}
	s.held.warnings = append(s.held.warnings, fmt.Sprintf("sync: %s works again", s.dir))
	s.again = false // published again just now
	s.recs.reset()
	return true
}

// close publishes what is queued, stops the goroutine and writes the
// warnings the loop did not take to log.
func (s *syncer) close(log io.Writer) {
	close(s.out)
	<-s.done
	for _, w := range s.held.warnings {
		fmt.Fprintf(log, "fuzz: warning: %s\n", w)
	}
}

// newsC returns the channel of the syncer's news, nil when not syncing.
func (c *coordinator) newsC() <-chan syncNews {
	if c.sync == nil {
		return nil
	}
	return c.sync.news
}

// publish has e, which adds coverage, written for the other instances,
// with cov, its coverage (recordable; nil when not known), recorded beside
// it; cache, when e is new here, has the syncer also write it to the cache
// (syncOut). It reports whether the syncer writes e to the cache.
func (c *coordinator) publish(e *entry, cov []byte, cache bool) bool {
	if c.sync == nil || e.seed || e.imported {
		return false
	}
	cache = cache && c.cache != nil
	c.sync.out <- syncOut{e.data, cache, cov}
	return cache
}

// recordable returns cov as a coverage log records it (appendSparse), or
// nil when this run records none.
func (c *coordinator) recordable(cov []byte) []byte {
	if c.key == nil || cov == nil {
		return nil
	}
	return appendSparse(nil, cov)
}

// synced takes what the syncer found: its warnings and, unless the run is
// stopping, the inputs to run on the next free workers and those with
// recorded coverage, which join the corpus at once when it adds coverage
// here.
func (c *coordinator) synced(stopping bool, n syncNews) {
	for _, w := range n.warnings {
		c.rep.emit(event.Event{Type: event.Warning, Message: w})
	}
	if n.share != nil {
		c.corpus.share = *n.share
	}
	if stopping {
		return
	}
	c.inputs = append(c.inputs, n.entries...)
	for _, r := range n.recorded {
		if bits := c.merge(r.cov); bits > 0 {
			c.corpus.add(r.e, r.cov)
			c.addImported(r.e, bits, true)
		}
	}
}

// addImported takes an input of another instance that added coverage here
// into this instance's cache; recorded says its coverage was the other
// instance's record, not a run here. The corpus grew, for the length
// control too: as one instance's workers share a plateau, so do synced
// instances, or one that lives on imports sees its limit rise as if it
// found nothing.
func (c *coordinator) addImported(e *entry, bits int, recorded bool) {
	c.newCount++
	c.lastNew = time.Now()
	c.lens.grew(c.execs)
	path := c.saveCache(e)
	c.rep.emit(event.Event{Type: event.Coverage, Reproducer: path, Corpus: c.corpus.len(), Edges: bits, Imported: true, Recorded: recorded})
}

// syncEntries returns the directory of the sync directory's entries of the
// fuzz test, "" without a sync directory.
func syncEntries(opts *Options) string {
	if opts.SyncDir == "" {
		return ""
	}
	return filepath.Join(opts.SyncDir, opts.Target)
}

// staleTemp is how old a temporary directory of a corpus directory is when
// a run removes it (corpus.RemoveStale): a killed run's. A live writer's is
// younger: its Batch makes a new one after each flush.
const staleTemp = 10 * time.Minute
