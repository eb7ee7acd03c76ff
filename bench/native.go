package main

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// nativeArgs is the go test command line for one native run in the target's
// directory. cachedir is a fresh directory so that runs share no corpus.
func nativeArgs(cfg config, t target, cachedir string, race bool) []string {
	test := []string{"go", "test"}
	if race {
		test = append(test, "-race")
	}
	return append(test, "-run=^$", "-fuzz=^"+t.fuzz+"$",
		"-fuzztime="+cfg.fuzztime.String(), "-parallel="+strconv.Itoa(cfg.parallel),
		"-fuzzminimizetime="+cfg.minimizetime, ".", "-test.fuzzcachedir="+cachedir)
}

var (
	nativeStatsRE  = regexp.MustCompile(`^fuzz: elapsed: (\S+), execs: (\d+) \((\d+)/sec\)`)
	nativeFailedRE = regexp.MustCompile(`Failing input written to (\S+)`)
)

// nativeParser reads go test -fuzz output line by line. It is not safe for
// concurrent use.
type nativeParser struct {
	start      time.Duration // when the first "fuzz: elapsed:" line arrived; -1 before
	failAt     time.Duration // when minimizing or --- FAIL began; -1 before
	execs      int64         // from the last stats line
	rate       float64       // execs/s of the last stats line's interval
	statsAt    time.Duration // when the last stats line arrived
	elapsed    time.Duration // fuzzing time of the last stats line
	execsAt    int64         // estimated executions when failAt was set
	failing    bool          // a --- FAIL line was seen
	kind, msg  string
	text       []string // the failure report: the lines after --- FAIL
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
	if m := nativeStatsRE.FindStringSubmatch(s); m != nil && p.failAt < 0 {
		if d, err := time.ParseDuration(m[1]); err == nil {
			p.elapsed, p.statsAt = d, at
			p.execs, _ = strconv.ParseInt(m[2], 10, 64)
			p.rate, _ = strconv.ParseFloat(m[3], 64)
		}
	}
	if strings.HasPrefix(s, "fuzz: minimizing") || strings.HasPrefix(trimmed, "--- FAIL:") {
		if p.failAt < 0 {
			p.failAt = at
			p.execsAt = p.execs
			if p.statsAt > 0 {
				p.execsAt += int64(p.rate * (at - p.statsAt).Seconds())
			}
		}
	}
	if p.failing && len(p.text) < 400 {
		p.text = append(p.text, trimmed)
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
	{"race detected during execution of test", "race"},
	{"WARNING: DATA RACE", "race"},
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
	r.Failed = p.reproducer != ""
	r.Reproducer = p.reproducer
	if r.Failed {
		r.Kind, r.Message = p.kind, p.msg
		r.FailText = strings.Join(p.text, "\n")
		r.ExecsToFailure = p.execsAt
		if r.Kind == "" {
			r.Kind = "fail"
		}
		if p.failAt >= 0 && p.start >= 0 {
			r.TTF = (p.failAt - p.start).Seconds()
		}
	}
}
