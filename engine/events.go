package engine

import (
	"fmt"
	"io"
	"sync"
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
