package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// loadInputs returns the seeds, the zero input and the generated corpus, in
// that order.
func (c *coordinator) loadInputs() ([]*entry, error) {
	var es []*entry
	for _, s := range c.opts.Seeds {
		vals := s.Values
		if vals == nil {
			v, err := corpus.Unmarshal(s.Data)
			if err != nil {
				return nil, fmt.Errorf("engine: seed %s: %w", s.Path, err)
			}
			vals = v
		}
		es = append(es, newEntry(vals, s.Data, s.Path, true))
	}
	seeds := len(es)
	if c.opts.CacheDir != "" {
		cached, err := corpus.ReadDir(c.opts.CacheDir, c.opts.Types)
		if err != nil {
			fmt.Fprintf(c.opts.Log, "fuzz: warning: skipping bad entries of the generated corpus: %v\n", err)
		}
		// Smallest first: when two entries reach the same coverage, the
		// baseline keeps the smaller and prunes the other.
		sort.SliceStable(cached, func(i, j int) bool { return len(cached[i].Data) < len(cached[j].Data) })
		for _, e := range cached {
			es = append(es, newEntry(e.Values, e.Data, e.Path, false))
		}
	}
	// The zero input (empty strings and byte slices, zeros) runs after the
	// seeds and stays if it reaches anything they do not: its mutants are
	// short, as libFuzzer's are when it starts from its empty input, and a
	// parser's bugs at the end of a short input (a truncated escape, an
	// unclosed bracket) are found there, not by cutting a long seed at
	// the right byte. Kept, it is written to the generated corpus (where
	// the next run finds it); alone, it is the corpus. A pruning run
	// (corpus merge and minimize) keeps to the corpus it was given.
	zero := newEntry(zeroValues(c.opts.Types), nil, zeroPath, len(es) == 0)
	if (!c.opts.PruneOnly || len(es) == 0) && !slices.ContainsFunc(es, func(e *entry) bool { return string(e.enc) == string(zero.enc) }) {
		es = slices.Insert(es, seeds, zero)
	}
	for _, e := range es {
		if err := corpus.CheckTypes(e.vals, c.opts.Types); err != nil {
			return nil, fmt.Errorf("engine: corpus entry %s: %w", e.path, err)
		}
	}
	return c.dropOversized(c.inputsOnce(c.leaveOut(es)), valueCap), nil
}

// leaveOut returns es without the inputs Options.LeaveOut names, by the
// name go test gives a seed or by the name of the input's file.
func (c *coordinator) leaveOut(es []*entry) []*entry {
	if len(c.opts.LeaveOut) == 0 {
		return es
	}
	return slices.DeleteFunc(es, func(e *entry) bool {
		return slices.Contains(c.opts.LeaveOut, filepath.Base(e.path)) || slices.Contains(c.opts.LeaveOut, corpus.Name(e.data))
	})
}

// inputsOnce returns es without the entries whose input an earlier one has, as
// go test's coordinator adds each input once (by its encoding): a loop of
// f.Add calls over a few values, or f.Add(nil) beside f.Add([]byte{}), is
// one input of the baseline; the first (a seed before a generated entry)
// stays. A generated entry that is a seed's input adds nothing: it is
// pruned (deleted), as the baseline prunes what adds no coverage.
func (c *coordinator) inputsOnce(es []*entry) []*entry {
	seen := make(map[string]bool, len(es))
	return slices.DeleteFunc(es, func(e *entry) bool {
		dup := seen[string(e.enc)]
		seen[string(e.enc)] = true
		if dup && !e.seed && e.path != "" && filepath.Dir(e.path) == filepath.Clean(c.opts.CacheDir) {
			if err := os.Remove(e.path); err == nil {
				c.pruned++
			}
		}
		return dup
	})
}

// dropOversized leaves out, with a warning, the entries too large for a
// worker's shared memory (limit: valueCap, a seed of over 100 MiB, which go
// test -fuzz cannot run either). It would otherwise never reach the fuzz
// function.
func (c *coordinator) dropOversized(es []*entry, limit int) []*entry {
	return slices.DeleteFunc(es, func(e *entry) bool {
		if len(e.enc) <= limit {
			return false
		}
		c.rep.emit(event.Event{Type: event.Warning, Message: fmt.Sprintf(
			"corpus entry %s is %d bytes encoded, more than the %d a fuzzing worker takes (go test -fuzz's limit too): it is not run while fuzzing (it runs as a test unless -run leaves the fuzz test out)",
			e.path, len(e.enc), limit)})
		return true
	})
}

// zeroPath names the zero input (loadInputs) until it is written to the
// generated corpus.
const zeroPath = "zero"

// A seedRef names a seed corpus entry, as go test does (f.Add's values,
// a testdata file; not the zero input): a failure of one is reported as
// go test reports it, against the entry, which is neither minimized nor
// written again. For a generated-corpus entry it holds only the entry's
// file name, which a failure of its input reports beside the reproducer
// (its input minimized, of another name): the name Options.LeaveOut knows
// the entry by. The zero seedRef stands for any other input.
type seedRef struct {
	name  string // as go test -run=FuzzX/name selects it: seed#0, a testdata file's name
	path  string // the testdata file, its own reproducer; "" for f.Add's values
	entry string // a generated-corpus entry's file name; "" for a seed
}

// seedOf returns e's seedRef.
func seedOf(e *entry) seedRef {
	switch {
	case e.path == zeroPath || e.path == "":
		return seedRef{}
	case !e.seed:
		return seedRef{entry: filepath.Base(e.path)}
	}
	s := seedRef{name: filepath.Base(e.path)}
	if strings.HasPrefix(e.path, "testdata") {
		s.path = e.path
	}
	return s
}

// baseline runs the corpus input e on p for the baseline, tracing its
// comparisons with trace. It returns the message that reports it and the
// process to use next; an error means no process can be started.
func (w *worker) baseline(p *proc, e *entry, trace bool) (ranBaseline, *proc, error) {
	done := ranBaseline{e: e}
	if !p.mem.SetValue(e.enc) {
		w.internal(fmt.Sprintf("worker: corpus entry %s (%d bytes) does not fit in shared memory", e.path, len(e.enc)))
		return done, p, nil
	}
	var resp ipc.RunResponse
	// A seed settles: a reproducer of a goroutine that fails after the fuzz
	// function returned (event.AfterReturn) fails again as a seed. The
	// generated corpus does not: it may hold thousands of inputs.
	if err := p.call(ipc.Call{Run: &ipc.RunArgs{Trace: trace, Settle: e.seed}}, &resp); err != nil {
		np, err := w.lost(p, err, e.vals, seedOf(e))
		return done, np, err
	}
	if resp.InternalErr != "" {
		w.internal("worker: " + resp.InternalErr)
		np, err := w.restart(p)
		return done, np, err
	}
	w.count(1)
	if resp.Err != "" {
		np, err := w.failed(p, resp.Err, e.vals, seedOf(e))
		return done, np, err
	}
	done.cov, done.tokens, done.dur = p.mem.Coverage(), resp.Tokens, resp.Duration
	return done, p, nil
}

// ranBaseline merges a baseline input's coverage and keeps the input when
// it is a seed or adds coverage; it prunes it otherwise.
func (c *coordinator) ranBaseline(b ranBaseline) {
	if b.cov == nil {
		return // it failed: recorded
	}
	c.dict.add(b.tokens)
	n := c.merge(b.cov)
	if n > 0 || b.e.seed {
		// A traced run is slower than a fuzz call's executions: the
		// entry's time stays unmeasured, as the schedule's average.
		if c.opts.NoCmp {
			b.e.dur = b.dur
		}
		c.corpus.add(b.e, b.cov)
		if b.e.imported {
			c.addImported(b.e, n, false)
		}
		if !b.e.seed && !b.e.imported {
			b.e.baseCov = c.recordable(b.cov) // recorded when it is published
		}
		if b.e.path == zeroPath && !b.e.seed {
			if path := c.saveCache(b.e); path != "" {
				b.e.path = path
			}
		}
		return
	}
	c.prune(b.e)
}

// merge merges cov into the global coverage and returns the number of new
// bucket bits.
func (c *coordinator) merge(cov []byte) int {
	n := mergeBits(c.global, cov)
	if n > 0 {
		c.snap = nil
	}
	return n
}

// prune deletes a generated-corpus entry that adds no coverage to what the
// seeds and earlier (smaller) entries reach. This bounds the cache's growth:
// every run leaves only entries that mattered to its baseline.
func (c *coordinator) prune(e *entry) {
	if e.seed || e.path == "" || c.covLen == 0 || filepath.Dir(e.path) != filepath.Clean(c.opts.CacheDir) {
		return
	}
	if err := os.Remove(e.path); err == nil {
		c.pruned++
	}
}

// addFound adds an input a fuzz call found to the corpus if its coverage
// still adds bits to the global coverage, and saves it to the cache.
func (c *coordinator) addFound(f foundInput) {
	e, cov := f.e, f.cov
	n := c.merge(cov)
	if n == 0 {
		return // another worker found it first
	}
	c.newCount++
	c.lastNew = time.Now()
	if old := c.corpus.holding(e.data); old != nil {
		// An entry again, with bits it did not reach before: code whose
		// coverage varies from run to run (gojq's builtins lists a map).
		// One entry of it is enough; it may claim the new bits.
		if c.corpus.roundRobin {
			c.corpus.cull.rate(old, cov)
		}
		c.rep.emit(event.Event{Type: event.Coverage, Reproducer: c.cachePath(old), Corpus: c.corpus.len(), Edges: n})
		return
	}
	c.corpus.add(e, cov)
	c.toTwin(e)
	c.lens.grew(c.execs)
	var path string
	var rec []byte // the coverage record, when this run records
	if c.key != nil {
		rec = f.sparse
	}
	if c.publish(e, rec, true) {
		path = c.cache.path(e.data) // the syncer has it written
	} else {
		path = c.saveCache(e)
	}
	c.rep.emit(event.Event{Type: event.Coverage, Reproducer: path, Corpus: c.corpus.len(), Edges: n})
}

// cachePath returns the file that holds e: the one it came from, or its
// place in the generated corpus ("" when there is none).
func (c *coordinator) cachePath(e *entry) string {
	switch {
	case e.path != "" && e.path != zeroPath:
		return e.path
	case c.opts.CacheDir == "":
		return ""
	}
	return filepath.Join(c.opts.CacheDir, corpus.Name(e.data))
}

// saveDict writes the automatic dictionary next to the generated corpus,
// atomically, so the next run starts with the operands this one learned.
func (c *coordinator) saveDict() {
	if c.opts.CacheDir == "" || len(c.dict.auto) == 0 {
		return
	}
	if err := writeDictFile(dictBeside(c.opts.CacheDir), c.dict.auto); err != nil {
		fmt.Fprintf(c.opts.Log, "fuzz: warning: saving the automatic dictionary: %v\n", err)
	}
}

// saveCache writes e to the generated corpus and returns its path ("" when
// there is none or it could not be written). An entry imported from a sync
// directory is linked from its file there where the file system allows.
func (c *coordinator) saveCache(e *entry) string {
	if c.opts.CacheDir == "" {
		return ""
	}
	if c.cache != nil {
		src := ""
		if e.imported {
			src = e.path
		}
		return c.cache.save(e.data, src)
	}
	path, err := corpus.Write(c.opts.CacheDir, e.data)
	if err != nil {
		fmt.Fprintf(c.opts.Log, "fuzz: warning: %v\n", err)
		return ""
	}
	return path
}

// warnModified reports, once per run, that the fuzz function changed its
// []byte argument arg (1-based) while running the encoded input enc, and
// saves that input to the generated corpus so it can be looked at.
//
// It is a warning, not a failure: the testing package forbids changing the
// arguments, but stock go test does not check it, so a reproducer in
// testdata/ would pass there; and every execution here gets its own copy of
// the input, so the change does not corrupt fuzzing. Callers of the code
// that reuse their buffers may well be hurt, which is why it is reported.
func (c *coordinator) warnModified(arg int, enc []byte) {
	if c.warned {
		return
	}
	c.warned = true
	path := ""
	if vals, err := decodeValues(enc); err == nil {
		if data, err := corpus.Marshal(vals...); err == nil {
			path = c.saveCache(&entry{data: data})
		}
	}
	c.rep.emit(event.Event{Type: event.Warning, Reproducer: path, Message: fmt.Sprintf(
		"the fuzz function changed its []byte argument %d while running an input (saved to %s): the testing package forbids changing the arguments; stock go test does not check it, so this is not reported as a failure, and fuzzing goes on (each execution gets its own copy)", arg, orNone(path))})
}

func orNone(path string) string {
	if path == "" {
		return "no file: there is no cache directory"
	}
	return path
}
