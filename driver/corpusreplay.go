package driver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// replay replays a fuzz test's corpus through a coverage test binary until
// one run completes. A run that dies (panic, os.Exit, timeout) writes no
// usable coverage; the entry it died in is skipped and the corpus is run
// again, so every other entry is counted exactly once. A generated-corpus
// file the testing package refuses (malformed, wrong types) fails the fuzz
// test before any entry runs; it is removed and the corpus run again.
type replay struct {
	ctx              context.Context
	bin, dir, target string
	cache            map[string]bool // entry names copied from the generated corpus
	limit            time.Duration   // of one run (Config.ReplayLimit)
	user             []string        // the binary's last arguments (Config.userArgs)
	tmp              string

	// Results, set by run.
	coverDir           string   // the complete run's GOCOVERDIR
	passed, failed     []string // subtest names of the complete run
	crashed            []string // entries that killed the binary, in order found
	unreadable         []string // generated-corpus files the testing package refused
	seeds, fromCache   int      // entries run by the complete run, by origin
	unreadableMessages []string
}

var (
	// Entry names may hold spaces: testing prints a corpus file's name as
	// it is ("FuzzX/seed one"), where it rewrites a t.Run name's.
	runLineRE   = regexp.MustCompile(`^=== RUN   (.+)$`)
	resultRE    = regexp.MustCompile(`^\s+--- (PASS|FAIL|SKIP): (.+) \([0-9.]+s\)$`)
	malformedRE = regexp.MustCompile(`"testdata/fuzz/[^/"]+/([^/"]+)": (.*)`)
)

func (rp *replay) run() error {
	skip := map[string]bool{}
	for i := 0; ; i++ {
		covDir := filepath.Join(rp.tmp, fmt.Sprintf("cov%d", i))
		if err := os.Mkdir(covDir, 0o777); err != nil {
			return err
		}
		out, complete, err := rp.runOnce(covDir, skip)
		if err != nil {
			return err
		}
		if !complete {
			name := rp.lastRun(out)
			if name == "" || skip[name] {
				return fmt.Errorf("%s died before its corpus could be replayed:\n%s", rp.target, tail(out, 20))
			}
			skip[name] = true
			rp.crashed = append(rp.crashed, name)
			continue
		}
		if !bytes.Contains(out, []byte("=== RUN   "+rp.target+"\n")) {
			return fmt.Errorf("%s did not run: the test binary has no such fuzz test (is it behind a build tag? -tags)", rp.target)
		}
		rp.results(out)
		if len(rp.passed)+len(rp.failed) > 0 || !bytes.Contains(out, []byte("--- FAIL: "+rp.target+" (")) {
			rp.coverDir = covDir
			return nil
		}
		if !rp.dropUnreadable(out) {
			return fmt.Errorf("%s failed before replaying its corpus:\n%s", rp.target, tail(out, 20))
		}
	}
}

// runOnce runs the binary once, skipping the named entries, and reports
// whether the run completed (it printed its PASS/FAIL verdict and wrote
// coverage counters).
func (rp *replay) runOnce(covDir string, skip map[string]bool) ([]byte, bool, error) {
	args := []string{"-test.run=^" + rp.target + "$", "-test.v", "-test.timeout=" + rp.limit.String(),
		"-test.gocoverdir=" + covDir}
	if len(skip) > 0 {
		names := make([]string, 0, len(skip))
		for n := range skip {
			names = append(names, event.EntryPattern(n))
		}
		sort.Strings(names)
		args = append(args, "-test.skip=^"+rp.target+"$/^("+strings.Join(names, "|")+")$")
	}
	out, _, err := combined(rp.ctx, testCmd(rp.dir, rp.bin, rp.user, args...))
	if err != nil {
		return nil, false, fmt.Errorf("running the coverage test binary: %w", err)
	}
	verdict, noStatements := false, false
	for _, line := range framedLines(out) {
		verdict = verdict || line == "PASS" || line == "FAIL"
		noStatements = noStatements || line == "coverage: [no statements]" // a package of test files only: no counters to write
	}
	counters, _ := filepath.Glob(filepath.Join(covDir, "covcounters.*"))
	return []byte(out), verdict && (len(counters) > 0 || noStatements), nil
}

// lastRun returns the name of the last entry the run started.
func (rp *replay) lastRun(out []byte) string {
	name := ""
	for _, line := range framedLines(string(out)) {
		if m := runLineRE.FindStringSubmatch(line); m != nil && strings.HasPrefix(m[1], rp.target+"/") {
			name = strings.TrimPrefix(m[1], rp.target+"/")
		}
	}
	return name
}

// results records the entry results of a complete run.
func (rp *replay) results(out []byte) {
	rp.passed, rp.failed, rp.seeds, rp.fromCache = nil, nil, 0, 0
	for _, line := range framedLines(string(out)) {
		m := resultRE.FindStringSubmatch(line)
		if m == nil || !strings.HasPrefix(m[2], rp.target+"/") {
			continue
		}
		name := strings.TrimPrefix(m[2], rp.target+"/")
		if m[1] == "FAIL" {
			rp.failed = append(rp.failed, name)
		} else {
			rp.passed = append(rp.passed, name)
		}
		if rp.cache[name] {
			rp.fromCache++
		} else {
			rp.seeds++
		}
	}
}

// dropUnreadable removes the generated-corpus files the testing package
// refused in out and reports whether there were any. Refused seed files
// are the user's to fix: stock go test fails on them too.
func (rp *replay) dropUnreadable(out []byte) bool {
	dropped := false
	for _, m := range malformedRE.FindAllStringSubmatch(string(out), -1) {
		name := m[1]
		if !rp.cache[name] {
			return false
		}
		if err := os.Remove(filepath.Join(rp.dir, "testdata", "fuzz", rp.target, name)); err != nil {
			continue // already removed: listed twice
		}
		delete(rp.cache, name)
		rp.unreadable = append(rp.unreadable, name)
		rp.unreadableMessages = append(rp.unreadableMessages, name+": "+m[2])
		dropped = true
	}
	return dropped
}

// entries reports what was replayed.
func (rp *replay) entries() EntryReport {
	e := EntryReport{Seeds: rp.seeds, Generated: rp.fromCache, Passed: nonNil(rp.passed), Failed: nonNil(rp.failed),
		Crashed: nonNil(rp.crashed), Unreadable: []Unreadable{}} // [] rather than null in JSON
	for _, n := range rp.crashed {
		if rp.cache[n] {
			e.crashedGenerated++
		}
	}
	for i, name := range rp.unreadable {
		_, msg, _ := strings.Cut(rp.unreadableMessages[i], ": ")
		e.Unreadable = append(e.Unreadable, Unreadable{Name: name, Error: msg})
	}
	return e
}

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// nonNil returns s, or an empty slice for nil: [] rather than null in JSON.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
