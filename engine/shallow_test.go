package engine

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

// TestShallowCaller: results, errors and panics come back to the caller,
// a Goexit does not stop the next call, and the calls run on a stack that
// holds only the caller's own frames.
func TestShallowCaller(t *testing.T) {
	var depth int
	s := newShallowCaller(func(vals []any) error {
		pc := make([]uintptr, 64)
		depth = runtime.Callers(0, pc)
		switch vals[0] {
		case "err":
			return errors.New("failed")
		case "panic":
			panic("boom")
		case "goexit":
			runtime.Goexit()
		}
		return nil
	})
	defer s.stop()
	if err := s.call([]any{"ok"}); err != nil {
		t.Fatalf("call = %v", err)
	}
	// runtime.Callers, fn, run, loop, goexit: the serving loop's frames
	// are not there.
	if depth > 6 {
		t.Errorf("fn ran %d frames deep, want at most 6", depth)
	}
	if err := s.call([]any{"err"}); err == nil || err.Error() != "failed" {
		t.Errorf("call = %v, want the error", err)
	}
	for _, v := range []string{"panic", "goexit"} {
		got := func() (r any) {
			defer func() { r = recover() }()
			s.call([]any{v})
			return nil
		}()
		if got == nil {
			t.Errorf("%s: no panic in the caller", v)
		} else if v == "goexit" && !strings.Contains(got.(string), "Goexit") {
			t.Errorf("goexit: panic %v", got)
		}
		if err := s.call([]any{"ok"}); err != nil {
			t.Errorf("after %s: call = %v", v, err)
		}
	}
}
