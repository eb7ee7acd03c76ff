package main

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// nativeArgs is the go test command line for one native run in the target's
// directory. cachedir is a fresh directory so that runs share no corpus.
func nativeArgs(cfg config, t target, cachedir string) []string {
	return []string{"go", "test", "-run=^$", "-fuzz=^" + t.fuzz + "$",
		"-fuzztime=" + cfg.fuzztime.String(), "-parallel=" + strconv.Itoa(cfg.parallel),
		"-fuzzminimizetime=" + cfg.minimizetime, ".", "-test.fuzzcachedir=" + cachedir}
}

var (
	nativeStatsRE  = regexp.MustCompile(`^fuzz: elapsed: (\S+), execs: (\d+) \(`)
	nativeFailedRE = regexp.MustCompile(`Failing input written to (\S+)`)
)

// nativeParser reads go test -fuzz output line by line. It is not safe for
// concurrent use.
type nativeParser struct {
	start      time.Duration // when the first "fuzz: elapsed:" line arrived; -1 before
	failAt     time.Duration // when minimizing or --- FAIL began; -1 before
	execs      int64         // from the last stats line
	elapsed    time.Duration // fuzzing time of the last stats line
	failing    bool          // a --- FAIL line was seen
	kind, msg  string
	reproducer string
}

func newNativeParser() *nativeParser { return &nativeParser{start: -1, failAt: -1} }

// line consumes one output line that arrived at offset at from process start.
func (p *nativeParser) line(at time.Duration, s string) {
	s = strings.TrimRight(s, "\r")
	trimmed := strings.TrimSpace(s)
	if strings.HasPrefix(s, "fuzz: elapsed:") && p.start < 0 {
		p.start = at
	}
	if m := nativeStatsRE.FindStringSubmatch(s); m != nil {
		if d, err := time.ParseDuration(m[1]); err == nil {
			p.elapsed = d
			p.execs, _ = strconv.ParseInt(m[2], 10, 64)
		}
	}
	if strings.HasPrefix(s, "fuzz: minimizing") || strings.HasPrefix(trimmed, "--- FAIL:") {
		if p.failAt < 0 {
			p.failAt = at
		}
	}
	if strings.HasPrefix(trimmed, "--- FAIL:") {
		p.failing = true
		return
	}
	if m := nativeFailedRE.FindStringSubmatch(s); m != nil {
		p.reproducer = m[1]
		return
	}
	if p.failing && p.kind == "" {
		p.classify(trimmed)
	}
}

// nativeKinds maps text go test prints for a failing input to a kind.
var nativeKinds = []struct{ text, kind string }{
	{"fuzzing process hung or terminated unexpectedly", "hung or exited"},
	{"terminated by unexpected signal", "signal"},
	{"fatal error:", "fatal"},
	{"out of memory", "oom"},
	{"panic: ", "panic"},
}

func (p *nativeParser) classify(s string) {
	for _, k := range nativeKinds {
		if strings.Contains(s, k.text) {
			p.kind, p.msg = k.kind, s
			return
		}
	}
	// A t.Fatal or t.Error line looks like "file_test.go:12: message".
	if i := strings.Index(s, "_test.go:"); i > 0 {
		p.kind, p.msg = "fail", s
	}
}

// result fills the engine-specific fields of r.
func (p *nativeParser) result(r *runResult) {
	r.Execs = p.execs
	r.FuzzS = p.elapsed.Seconds()
	if p.elapsed > 0 {
		r.ExecsPerSec = float64(p.execs) / p.elapsed.Seconds()
	}
	r.Found = p.reproducer != ""
	r.Reproducer = p.reproducer
	if r.Found {
		r.Kind, r.Message = p.kind, p.msg
		if r.Kind == "" {
			r.Kind = "fail"
		}
		if p.failAt >= 0 && p.start >= 0 {
			r.TTF = (p.failAt - p.start).Seconds()
		}
	}
}
