package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/event"
)

// Corpus sync between instances (Options.SyncDir): each instance writes the
// inputs that add coverage for it to <SyncDir>/<Target>/, under their
// content's name (corpus.Write: atomic, the same input written twice is the
// same file), and every few seconds reads the files there it has not seen.
// A file that is not a go test fuzz v1 entry of the fuzz test's types is
// skipped with a warning; the others run on a worker as the baseline's
// inputs do and join the corpus (and this instance's cache) when they add
// coverage here, as AFL's -M/-S instances sync their queues. A sync
// directory that cannot be read or written is reported once, until it works
// again; fuzzing goes on either way.

// syncState is the coordinator's view of its sync directory.
type syncState struct {
	dir    string          // <SyncDir>/<Target>; "" when not syncing
	out    *cacheWriter    // writes this instance's entries to dir, off the loop
	seen   map[string]bool // names read or written
	broken bool            // the last access failed (reported)
	last   time.Time       // the last scan
	// imported counts the inputs read from other instances that added
	// coverage here.
	imported int
}

// syncEvery is how often the coordinator reads the sync directory.
const syncEvery = 5 * time.Second

func newSyncState(opts *Options) *syncState {
	s := &syncState{seen: map[string]bool{}}
	if opts.SyncDir != "" {
		s.dir = filepath.Join(opts.SyncDir, opts.Target)
	}
	return s
}

// publish writes e, which adds coverage, for the other instances.
// The write happens on the sync writer's goroutine (cachewrite.go): the
// loop does not wait for the disk, and write errors are reported at the end
// of the run (reading the directory reports an unusable one as it happens).
func (c *coordinator) publish(e *entry) {
	if c.sync.out == nil || e.seed || e.imported {
		return
	}
	c.sync.seen[filepath.Base(c.sync.out.save(e.data))] = true
}

// importSynced reads the sync directory's new files, when syncEvery has
// passed since the last time, and queues the valid ones to run on the next
// free workers.
func (c *coordinator) importSynced(now time.Time) {
	if c.sync.dir == "" || !c.fuzzing || now.Sub(c.sync.last) < syncEvery {
		return
	}
	c.sync.last = now
	ents, err := os.ReadDir(c.sync.dir)
	if errors.Is(err, fs.ErrNotExist) && !c.sync.broken {
		err = nil // no instance has written yet
	}
	c.syncResult("reading", err)
	for _, de := range ents {
		name := de.Name()
		if c.sync.seen[name] || strings.HasPrefix(name, ".") || !de.Type().IsRegular() {
			continue
		}
		c.sync.seen[name] = true
		if e, err := c.readSynced(filepath.Join(c.sync.dir, name)); err != nil {
			c.rep.emit(event.Event{Type: event.Warning, Message: fmt.Sprintf("sync: skipping %s: %v", name, err)})
		} else {
			c.inputs = append(c.inputs, e)
		}
	}
}

// readSynced reads one file of the sync directory as a corpus entry.
func (c *coordinator) readSynced(path string) (*entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	vals, err := corpus.Unmarshal(data)
	if err == nil {
		err = corpus.CheckTypes(vals, c.opts.Types)
	}
	if err != nil {
		return nil, fmt.Errorf("not an entry of %s: %w", c.opts.Target, err)
	}
	e := newEntry(vals, data, path, false)
	e.imported = true
	return e, nil
}

// syncResult reports the first failure to use the sync directory, and that
// it works again after one.
func (c *coordinator) syncResult(what string, err error) {
	switch {
	case err != nil && !c.sync.broken:
		c.sync.broken = true
		c.rep.emit(event.Event{Type: event.Warning, Message: fmt.Sprintf("sync: %s %s failed, fuzzing goes on without it: %v", what, c.sync.dir, err)})
	case err == nil && c.sync.broken:
		c.sync.broken = false
		c.rep.emit(event.Event{Type: event.Warning, Message: fmt.Sprintf("sync: %s works again", c.sync.dir)})
	}
}

// addImported takes an input of another instance that added coverage here
// into this instance's cache.
func (c *coordinator) addImported(e *entry, bits int) {
	c.sync.imported++
	c.newCount++
	c.lastNew = time.Now()
	path := c.saveCache(e)
	c.rep.emit(event.Event{Type: event.Coverage, Reproducer: path, Corpus: c.corpus.len(), Edges: bits, Imported: true})
}
