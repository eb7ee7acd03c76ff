package engine

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// cacheQueue is how many entries the cache writer holds before the
// coordinator waits for it.
const cacheQueue = 4096

// cacheWriter writes generated-corpus entries from a goroutine of its own,
// in the order given, so that the coordinator's loop does not wait for the
// disk: corpus.Write syncs each file and its directory, milliseconds each on
// a virtual machine's disk, and a text parser finds new coverage hundreds of
// times a second at the start of a run (bench/README.md, "Text-format
// parsers"). Reproducers are not written through it.
type cacheWriter struct {
	dir  string
	in   chan []byte
	done chan struct{}
	errs []error // the writer goroutine's; read after done is closed
}

// newCacheWriter starts a writer into dir.
func newCacheWriter(dir string) *cacheWriter {
	w := &cacheWriter{dir: dir, in: make(chan []byte, cacheQueue), done: make(chan struct{})}
	go w.run()
	return w
}

func (w *cacheWriter) run() {
	defer close(w.done)
	for data := range w.in {
		w.write(data)
	}
}

// write writes one entry, keeping the first few errors.
func (w *cacheWriter) write(data []byte) {
	if _, err := corpus.Write(w.dir, data); err != nil && len(w.errs) < 3 {
		w.errs = append(w.errs, err)
	}
}

// save queues data and returns the path it is written to. When the queue is
// full (a disk slower than the finds), it waits for the disk.
func (w *cacheWriter) save(data []byte) string {
	w.in <- data
	return filepath.Join(w.dir, corpus.Name(data))
}

// close writes what is queued and reports the errors of the run to log.
func (w *cacheWriter) close(log io.Writer) {
	close(w.in)
	<-w.done
	for _, err := range w.errs {
		fmt.Fprintf(log, "fuzz: warning: %v\n", err)
	}
}
