package engine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// reporter writes events as JSON lines, or status lines for people.
type reporter struct {
	mu     sync.Mutex
	target string
	start  time.Time
	events io.Writer // JSON lines; nil for human output
	log    io.Writer
	// minimizing counts the failures workers are minimizing: while one is
	// and fuzzing has stopped for it, the statistics ticks say so (loop).
	minimizing atomic.Int32
	// lost is called once when an event cannot be written: the events
	// go to a pipe the driver reads until the run ends, so its reader is
	// gone (the driver, or the editor running it, was killed). The run
	// stops, as on Ctrl-C, rather than fuzz for nobody until -fuzztime,
	// or for ever. Nil until the run starts, and once called. Only a
	// failed write counts: an event that does not encode (a NaN rate) is
	// the engine's fault, and must not stop the run.
	lost func()
}

// onLost sets what to call when the events' reader is gone (lost).
func (r *reporter) onLost(lost func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lost = lost
}

func (r *reporter) emit(e event.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e.Time, e.Target = time.Now(), r.target
	e.Elapsed = e.Time.Sub(r.start).Milliseconds()
	if r.events != nil {
		var write *fs.PathError
		if err := event.Encode(r.events, e); errors.As(err, &write) && r.lost != nil {
			lost := r.lost
			r.lost = nil
			lost()
		}
		return
	}
	if line := event.Format(e); line != "" {
		fmt.Fprintln(r.log, line)
	}
}
