package lsp

import (
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fuzzbox/fuzzbox/driver"
)

// Typed corpus entries (package typed, docs/typed.md) hold one []byte that
// encodes the fuzz function's typed arguments. Only the test binary knows
// their types, so their values as Go syntax come from driver.TypedValues,
// which builds the package's test: seconds. The first lens or hover of a
// fuzz test's one-[]byte entry asks for all of its corpus files at once, in
// the background, and refreshes the lenses when the answer is in; until
// then, and for fuzz tests that are not typed, lenses show the bytes.

// typedRetry is how long a fuzz test that gave no typed values (not typed,
// or its package did not build) waits before it is asked again.
const typedRetry = time.Minute

type typedCache struct {
	mu      sync.Mutex
	vals    map[string]typedEntry // corpus file -> its arguments as Go syntax
	pending map[testKey]bool      // a request in flight
	failed  map[testKey]time.Time // the last request that gave nothing
}

// typedEntry is a file's values for the content whose hash is sum.
type typedEntry struct {
	sum    [32]byte
	values []string
}

// typedValues returns the typed arguments of corpus file path, whose text
// is text, of fuzz test name in package dir, if known; if not, it asks in
// the background (once per fuzz test at a time).
func (s *Server) typedValues(dir, name, path, text string) ([]string, bool) {
	c := &s.typed
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.vals[path]; ok {
		if e.sum == sha256.Sum256([]byte(text)) {
			return e.values, true
		}
		if disk, err := os.ReadFile(path); err == nil && sha256.Sum256(disk) == e.sum {
			return nil, false // an unsaved edit: the file on disk is what the answer was for
		}
	}
	key := testKey{dir, name}
	if c.pending[key] || time.Since(c.failed[key]) < typedRetry {
		return nil, false
	}
	if c.pending == nil {
		c.pending, c.failed, c.vals = map[testKey]bool{}, map[testKey]time.Time{}, map[string]typedEntry{}
	}
	c.pending[key] = true
	s.runsWG.Add(1)
	go func() {
		defer s.runsWG.Done()
		s.askTypedValues(key)
	}()
	return nil, false
}

// askTypedValues gets the typed values of every corpus file of a fuzz test
// and refreshes the lenses.
func (s *Server) askTypedValues(key testKey) {
	files, _ := filepath.Glob(filepath.Join(key.dir, "testdata", "fuzz", key.name, "*"))
	// A fuzz test that is not typed (most fuzz one []byte) is told at once,
	// without a build: asking it built the package's test binary and ran
	// the fuzz test's seeds, for nothing, every typedRetry while a lens or
	// hover showed one of its corpus files.
	vals, err := driver.TypedValues(s.calls, s.config(key.dir), driver.Target{Name: key.name, Dir: key.dir}, files)
	c := &s.typed
	c.mu.Lock()
	delete(c.pending, key)
	if errors.Is(err, driver.ErrNotTyped) {
		c.failed[key] = time.Now()
		c.mu.Unlock()
		return
	}
	if err != nil {
		c.failed[key] = time.Now()
		c.mu.Unlock()
		s.logf("typed values of %s in %s: %v", key.name, key.dir, err)
		return
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if v, ok := vals[f]; ok && err == nil {
			c.vals[f] = typedEntry{sha256.Sum256(text), v}
		}
	}
	c.mu.Unlock()
	s.refreshLenses()
}

// entryTypedValues returns the typed arguments of corpus file path when its
// one value is a []byte and they are known (typedValues).
func (s *Server) entryTypedValues(path, text string, vals []any) ([]string, bool) {
	if len(vals) != 1 {
		return nil, false
	}
	if _, ok := vals[0].([]byte); !ok {
		return nil, false
	}
	// Asking builds and runs the package's test: never for a file outside
	// the workspace (a lens or hover on any file the client names).
	if _, err := s.workspacePath(string(pathURI(path))); err != nil {
		return nil, false
	}
	dir, name := corpusTest(path)
	return s.typedValues(dir, name, path, text)
}
