package driver

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// go test -fuzz's generated corpus: a fuzz test fuzzed with go test before
// has a corpus in $GOCACHE/fuzz/<import path>/<FuzzX> that fuzzbox starts
// from too. Before a fuzz test's first turn its entries are copied into
// fuzzbox's generated corpus (the engine's baseline then keeps those that add
// coverage and prunes the rest), each once: the names copied are recorded
// beside the corpus (<cachedir>/FuzzX.gocache), so that an entry the
// baseline pruned is not copied again in the next run. go test's cache is
// only read.

// importGoCorpus copies the entries of go test's generated corpus of r's
// fuzz test that fuzzbox's does not have and has not copied before, and
// says how many it copied. A pruning run (corpus minimize and merge) and
// Config.NoGoCache copy none.
func importGoCorpus(cfg Config, r *TargetResult, s *stream) {
	if cfg.PruneOnly || cfg.NoGoCache {
		return
	}
	gocache := goEnv(r.Dir, "GOCACHE") // "off" or "" when there is none
	cache, err := cfg.cacheDir(r.Target)
	if !filepath.IsAbs(gocache) || err != nil {
		return
	}
	src := filepath.Join(gocache, "fuzz", filepath.FromSlash(r.Package), r.Name)
	if _, err := os.Stat(src); os.IsNotExist(err) {
		return // never fuzzed with go test: no need to read the fuzz function's types
	}
	types, err := corpus.FuzzArgTypes(r.Dir, r.Name)
	if err != nil {
		types = nil // types the source does not spell plainly: the engine checks the entries
	}
	n, err := copyNewEntries(src, filepath.Join(cache, r.Name), filepath.Join(cache, r.Name+".gocache"), types)
	switch {
	case err != nil:
		s.output(r.Target, fmt.Sprintf("fuzz: warning: go test -fuzz's corpus of %s (%s) was not read: %v\n", r.Name, src, err))
	case n > 0:
		s.output(r.Target, fmt.Sprintf("fuzz: %d inputs of go test -fuzz's corpus of %s (%s) join the generated corpus\n", n, r.Name, src))
	}
}

// copyNewEntries copies the corpus files of src into dest (corpus.Write)
// but for those record names, and adds to record the names of every file of
// src it looked at, copied, present in dest already, or not a corpus file
// of the fuzz function's types (when types is not nil): go test's cache
// keeps the entries of a fuzz function's earlier arguments, which it skips
// and the engine would warn of at every run; those are left out for good.
// A file whose content is not what its name says (go test names an entry
// by its content) is neither copied nor recorded.
// A src that does not exist has nothing to copy.
func copyNewEntries(src, dest, record string, types []reflect.Type) (int, error) {
	ents, err := os.ReadDir(src)
	if os.IsNotExist(err) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	seen, err := readNames(record)
	if err != nil {
		return 0, err
	}
	var added []string
	n := 0
	var batch corpus.Batch // thousands of entries: not a disk sync each
	defer batch.Flush()    // on an early return: its temporary directory
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || seen[name] || strings.ContainsAny(name, "\n\r") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return n, err
		}
		if corpus.Name(data) != name {
			// go test names each entry by its content, and writes it in
			// place: one still being written (or cut short) is looked at
			// again in the next run, not left out for good.
			continue
		}
		added = append(added, name)
		vals, err := corpus.Unmarshal(data)
		if err != nil || types != nil && corpus.CheckTypes(vals, types) != nil {
			continue // not an entry of this fuzz function's: go test and the engine skip it
		}
		if _, err := os.Lstat(filepath.Join(dest, corpus.Name(data))); err == nil {
			continue
		}
		if _, err := batch.Write(dest, data); err != nil {
			return n, err
		}
		n++
	}
	if len(added) == 0 {
		return n, nil
	}
	if err := batch.Flush(); err != nil {
		return n, err
	}
	return n, appendNames(record, added)
}

// readNames returns the names a record file lists, one per line; none when
// it does not exist.
func readNames(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return map[string]bool{}, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	names := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		names[sc.Text()] = true
	}
	return names, sc.Err()
}

// appendNames adds names to a record file, a line each. A kill in the
// middle leaves at worst a partial last line, a name no file has: the
// entries after it are copied again, which is harmless.
func appendNames(path string, names []string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o666)
	if err != nil {
		return err
	}
	_, werr := f.WriteString(strings.Join(names, "\n") + "\n")
	if err := f.Close(); werr == nil {
		werr = err
	}
	return werr
}
