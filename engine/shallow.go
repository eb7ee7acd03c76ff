package engine

// shallowCaller runs a function on a goroutine of its own, whose stack
// holds nothing but that call. For every input, the testing package records
// the stack of the goroutine that runs it (runtime.Callers, up to 50
// frames) before it starts the fuzz function's goroutine; called from the
// serving loop, under the fuzz target and the test runner, that walk cost
// about a sixth of a small target's execution time. From here it is three
// frames. The hand-off is two channel operations.
type shallowCaller struct {
	fn  func([]any) error
	in  chan []any
	out chan shallowResult
}

type shallowResult struct {
	err      error
	panicked bool
	value    any // what fn panicked with
}

func newShallowCaller(fn func([]any) error) *shallowCaller {
	s := &shallowCaller{fn: fn, in: make(chan []any), out: make(chan shallowResult)}
	go s.loop()
	return s
}

func (s *shallowCaller) loop() {
	for vals := range s.in {
		s.run(vals)
	}
}

// run calls fn and sends its result. A panic is sent as one; on
// runtime.Goexit, which ends this goroutine, another one takes over.
func (s *shallowCaller) run(vals []any) {
	ok := false
	defer func() {
		if ok {
			return
		}
		r := recover()
		if r == nil {
			go s.loop()
			r = "runtime.Goexit called outside the fuzz function"
		}
		s.out <- shallowResult{panicked: true, value: r}
	}()
	err := s.fn(vals)
	ok = true
	s.out <- shallowResult{err: err}
}

// call runs fn(vals) on the shallow goroutine and returns its error; a
// panic in fn is raised again here, where the worker's recovery sees it.
func (s *shallowCaller) call(vals []any) error {
	s.in <- vals
	r := <-s.out
	if r.panicked {
		panic(r.value)
	}
	return r.err
}

// stop ends the shallow goroutine.
func (s *shallowCaller) stop() { close(s.in) }
