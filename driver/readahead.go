package driver

import (
	"errors"
	"io"
	"os"
	"sync"
	"time"
)

// A readAhead reads a pipe into memory as fast as it comes, for a reader
// that may take its time with each piece (the events' reader replays a
// failure with go test, seconds, before it reads on). Once the process
// writing the pipe has exited, endWithin closes a pipe that does not end
// by itself (a process the tests started holds it open) without losing
// what was written before.
type readAhead struct {
	f    *os.File
	mu   sync.Mutex
	cond sync.Cond
	buf  []byte
	err  error         // how the pipe's reading ended; nil while it goes on
	done chan struct{} // closed when it has ended
}

func newReadAhead(f *os.File) *readAhead {
	a := &readAhead{f: f, done: make(chan struct{})}
	a.cond.L = &a.mu
	go a.fill()
	return a
}

func (a *readAhead) fill() {
	b := make([]byte, 32<<10)
	for {
		n, err := a.f.Read(b)
		a.mu.Lock()
		a.buf = append(a.buf, b[:n]...)
		if err != nil {
			a.err = err
			close(a.done)
		}
		a.cond.Broadcast()
		a.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// Read reads what was read ahead; io.EOF after the pipe's end, which its
// closing by endWithin is too.
func (a *readAhead) Read(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for len(a.buf) == 0 && a.err == nil {
		a.cond.Wait()
	}
	if len(a.buf) > 0 {
		n := copy(p, a.buf)
		a.buf = a.buf[n:]
		return n, nil
	}
	if errors.Is(a.err, os.ErrClosed) {
		return 0, io.EOF
	}
	return 0, a.err
}

// Close closes the pipe.
func (a *readAhead) Close() error { return a.f.Close() }

// endWithin waits at most d for the pipe to end, then closes it.
func (a *readAhead) endWithin(d time.Duration) {
	select {
	case <-a.done:
	case <-time.After(d):
		a.f.Close()
		<-a.done
	}
}
