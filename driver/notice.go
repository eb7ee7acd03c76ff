package driver

import (
	"sync"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// A notice repeats an event while something slow that prints nothing goes
// on (a package's tests before fuzzing, a build): first after a quiet
// time, then every interval, until end.
type notice struct {
	mu   sync.Mutex
	over bool
	stop chan struct{}
}

// startNotice emits what's event, given the time since it started (to the
// second), after quiet and then every interval, until end.
func startNotice(s *stream, quiet, interval time.Duration, what func(sofar time.Duration) event.Event) *notice {
	n := &notice{stop: make(chan struct{})}
	began := time.Now()
	go func() {
		wait := time.NewTimer(quiet)
		defer wait.Stop()
		for {
			select {
			case <-n.stop:
				return
			case <-wait.C:
			}
			n.mu.Lock()
			if !n.over {
				s.emit(what(time.Since(began).Round(time.Second)))
			}
			n.mu.Unlock()
			wait.Reset(interval)
		}
	}()
	return n
}

// end stops the notices: no event of n's follows its return (the next
// phase's first is on its way). It may be called more than once, and on a
// nil notice (a turn that runs no test).
func (n *notice) end() {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.over {
		n.over = true
		close(n.stop)
	}
}
