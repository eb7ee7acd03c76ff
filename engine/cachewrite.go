package engine

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// cacheQueue is how many entries the cache writer holds before the
// coordinator waits for it.
const cacheQueue = 4096

// flushEvery is how often the cache writer and the syncer sync what they
// wrote (corpus.Batch): a crash of the machine loses at most the entries of
// the last second or so, which fuzzing finds again; a kill loses nothing.
const flushEvery = time.Second

// cacheWriter writes generated-corpus entries from a goroutine of its own,
// in the order given, so that the coordinator's loop does not wait for the
// disk: a text parser finds new coverage hundreds of times a second at the
// start of a run (bench/README.md, "Text-format parsers"), and each file
// costs milliseconds on a virtual machine's disk. It writes through a
// corpus.Batch, synced every flushEvery and at the end, not file by file
// (bench/README.md, "Corpus sync"). Reproducers are not written through it.
type cacheWriter struct {
	dir   string
	in    chan cacheItem
	done  chan struct{}
	batch corpus.Batch
	warn  func(string) // reports a warning as it happens
	errs  []error      // the writer goroutine's first few; read after done is closed
	lost  int          // the writer goroutine's count of failed writes and flushes
}

// newCacheWriter starts a writer into dir that reports with warn the first
// failure as it happens: a full or read-only cache directory lost every
// new input silently until the end of the run.
func newCacheWriter(dir string, warn func(string)) *cacheWriter {
	w := &cacheWriter{dir: dir, in: make(chan cacheItem, cacheQueue), done: make(chan struct{}), warn: warn}
	go w.run()
	return w
}

func (w *cacheWriter) run() {
	defer close(w.done)
	tick := time.NewTicker(flushEvery)
	defer tick.Stop()
	for {
		select {
		case it, ok := <-w.in:
			if !ok {
				w.keep(w.batch.Flush())
				return
			}
			var err error
			if it.src != "" {
				_, err = w.batch.Link(w.dir, it.src, it.data)
			} else {
				_, err = w.batch.Write(w.dir, it.data)
			}
			w.keep(err)
		case <-tick.C:
			w.keep(w.batch.Flush())
		}
	}
}

// keep counts err and keeps the first few; the first is reported at once.
func (w *cacheWriter) keep(err error) {
	if err == nil {
		return
	}
	if w.lost == 0 && w.warn != nil {
		w.warn(fmt.Sprintf("writing the generated corpus in %s failed (%v): new inputs are not kept there while it fails; fuzzing goes on", w.dir, err))
	}
	w.lost++
	if len(w.errs) < 3 {
		w.errs = append(w.errs, err)
	}
}

// A cacheItem is an entry to write: data, or, when src is set, the file src
// that holds data, linked where it can be (corpus.Batch.Link).
type cacheItem struct {
	data []byte
	src  string
}

// save queues data, held by the file src unless src is "", and returns the
// path it is written to. When the queue is full (a disk slower than the
// finds), it waits for the disk.
func (w *cacheWriter) save(data []byte, src string) string {
	w.in <- cacheItem{data, src}
	return w.path(data)
}

// path returns the path of the entry data.
func (w *cacheWriter) path(data []byte) string { return filepath.Join(w.dir, corpus.Name(data)) }

// close writes what is queued and reports the errors of the run to log.
func (w *cacheWriter) close(log io.Writer) {
	close(w.in)
	<-w.done
	for _, err := range w.errs {
		fmt.Fprintf(log, "fuzz: warning: %v\n", err)
	}
	if w.lost > len(w.errs) {
		fmt.Fprintf(log, "fuzz: warning: %d writes to the generated corpus in %s failed in all\n", w.lost, w.dir)
	}
}
