package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/lsp/command"
)

// The generated corpus on request: fuzzbox.showGenerated adds a fuzz test's
// generated corpus (driver.DefaultCacheDir of its package, the directory
// the sidecar's fuzz runs write) to fuzzbox.tests' answers; while any is
// listed, a watcher polls the directories and sends fuzzbox/testsChanged
// when their files change (they are outside the workspace, where clients do
// not watch). go test replays only testdata/fuzz/FuzzX, so
// fuzzbox.copyGenerated copies an entry there.

// genPoll is how often the listed generated corpora are looked at.
const genPoll = time.Second

// generatedDir returns the generated-corpus directory of a fuzz test; the
// package's import path (go list) is asked once per directory.
func (s *Server) generatedDir(key testKey) (string, error) {
	s.mu.Lock()
	pkg, ok := s.importPaths[key.dir]
	s.mu.Unlock()
	if !ok {
		cfg := s.config(key.dir)
		cfg.Fuzz = "^" + key.name + "$"
		ts, err := driver.Resolve(s.calls, cfg, nil)
		if err != nil {
			return "", fmt.Errorf("the package of %s: %w", key.name, err)
		}
		pkg = ts[0].Package
		s.mu.Lock()
		s.importPaths[key.dir] = pkg
		s.mu.Unlock()
	}
	dir, err := driver.DefaultCacheDir(pkg)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, key.name), nil
}

// generatedCorpus lists a fuzz test's generated corpus.
func (s *Server) generatedCorpus(key testKey) *command.GeneratedCorpus {
	dir, err := s.generatedDir(key)
	if err != nil {
		return &command.GeneratedCorpus{Entries: []command.EntryInfo{}, Error: err.Error()}
	}
	return &command.GeneratedCorpus{Dir: dir, Entries: s.entries(dir)}
}

// showGenerated starts or stops listing a test's generated corpus.
func (s *Server) showGenerated(key testKey, a command.GeneratedArgs) (any, error) {
	s.mu.Lock()
	if !a.Show {
		delete(s.shownGen, key)
		s.mu.Unlock()
		return nil, nil
	}
	if s.state == stateShutdown {
		s.mu.Unlock()
		return nil, invalidParams("server is shutting down")
	}
	if !s.watching {
		s.watching = true
		s.runsWG.Add(1)
		go s.watchGenerated(s.calls)
	}
	s.mu.Unlock()
	gen := s.generatedCorpus(key)
	s.mu.Lock()
	s.shownGen[key] = dirSignature(gen.Dir)
	s.mu.Unlock()
	return gen, nil
}

// watchGenerated polls the listed generated corpora until ctx (the
// server's calls) is cancelled at shutdown, and sends TestsChanged when the
// files of one changed.
func (s *Server) watchGenerated(ctx context.Context) {
	defer s.runsWG.Done()
	t := time.NewTicker(genPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		keys := make([]testKey, 0, len(s.shownGen))
		for k, sig := range s.shownGen {
			if sig != noDir { // its directory is unknown: listing it again says why
				keys = append(keys, k)
			}
		}
		s.mu.Unlock()
		changed := false
		for _, k := range keys {
			dir, err := s.generatedDir(k)
			if err != nil {
				continue
			}
			sig := dirSignature(dir)
			s.mu.Lock()
			if old, ok := s.shownGen[k]; ok && old != sig {
				s.shownGen[k] = sig
				changed = true
			}
			s.mu.Unlock()
		}
		if changed {
			s.notify(ctx, command.TestsChanged, json.RawMessage("null"))
		}
	}
}

// noDir is the dirSignature of an unknown directory.
const noDir = "unknown"

// dirSignature sums up a directory's files: names, sizes and times.
func dirSignature(dir string) string {
	if dir == "" {
		return noDir
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return "none"
	}
	var b strings.Builder
	b.WriteString("dir")
	for _, de := range des {
		if fi, err := de.Info(); err == nil {
			fmt.Fprintf(&b, "\n%s %d %d", de.Name(), fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
}

// copyGenerated copies one generated entry into testdata/fuzz/FuzzX/. An
// identical file already there is not an error; a different one is.
func (s *Server) copyGenerated(key testKey, a command.GeneratedArgs) (any, error) {
	if a.Entry == "" || a.Entry != filepath.Base(a.Entry) || a.Entry == "." || a.Entry == ".." {
		return nil, invalidParams("%q is not an entry name", a.Entry)
	}
	dir, err := s.generatedDir(key)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, a.Entry))
	if err != nil {
		return nil, invalidParams("generated entry of %s: %v", key.name, err)
	}
	if _, err := corpus.Unmarshal(data); err != nil {
		return nil, invalidParams("generated entry %s of %s is malformed: %v", a.Entry, key.name, err)
	}
	seeds := filepath.Join(key.dir, "testdata", "fuzz", key.name)
	dst := filepath.Join(seeds, a.Entry)
	if old, err := os.ReadFile(dst); err == nil && !bytes.Equal(old, data) {
		return nil, invalidParams("%s exists with other contents", relTo(key.dir, dst))
	}
	if err := os.MkdirAll(seeds, 0o777); err != nil {
		return nil, fmt.Errorf("copying %s: %w", a.Entry, err)
	}
	if err := os.WriteFile(dst, data, 0o666); err != nil {
		return nil, fmt.Errorf("copying %s: %w", a.Entry, err)
	}
	s.logMessage("%s: copied the generated entry %s to %s", key.name, a.Entry, relTo(key.dir, dst))
	return command.EntryInfo{Name: a.Entry, URI: string(pathURI(dst))}, nil
}

// withGenerated is withTest for GeneratedArgs.
func withGenerated(s *Server, arg json.RawMessage, f func(testKey, command.GeneratedArgs) (any, error)) (any, error) {
	var a command.GeneratedArgs
	if err := json.Unmarshal(arg, &a); err != nil {
		return nil, invalidParams("bad arguments: %v", err)
	}
	return withTest(s, arg, func(k testKey, _ string) (any, error) { return f(k, a) })
}

// shownGenerated reports whether a test's generated corpus is listed.
func (s *Server) shownGenerated(key testKey) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.shownGen[key]
	return ok
}
