package engine

import (
	"fmt"
	"io"
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
}

func (r *reporter) emit(e event.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e.Time, e.Target = time.Now(), r.target
	e.Elapsed = e.Time.Sub(r.start).Milliseconds()
	if r.events != nil {
		event.Encode(r.events, e)
		return
	}
	if line := event.Format(e); line != "" {
		fmt.Fprintln(r.log, line)
	}
}
