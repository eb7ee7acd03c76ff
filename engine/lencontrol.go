package engine

import "math"

// Length control (libFuzzer's -len_control). Mutants may make a []byte or
// string value at most lenCap bytes long, or as long as the base input's
// longest such value if that is longer: lenCap starts at the longest value
// of the corpus after the baseline (at least 4 bytes) and grows by ln(lenCap)
// bytes each time lenControl·ln(lenCap) executions pass without a new corpus
// entry. Short inputs run faster and keep mutations on the bytes that
// matter; the limit rises only when the short ones stop finding coverage.
type lenControl struct {
	cap     int   // 0 until start
	mark    int64 // executions at the last new entry or growth
	atEntry int   // cap at the start or the last new entry
}

// lenControlRuns is libFuzzer's default -len_control.
const lenControlRuns = 100

// start sets the limit from the corpus after the baseline.
func (l *lenControl) start(es []*entry, execs int64) {
	l.cap, l.mark = 4, execs
	for _, e := range es {
		l.cap = max(l.cap, maxBytesLen(e.vals))
	}
	l.atEntry = l.cap
}

// grew records a new corpus entry.
func (l *lenControl) grew(execs int64) { l.mark, l.atEntry = execs, l.cap }

// stall returns how far the limit has risen since the start or the last
// new corpus entry (limit brings it up to date): the slack a mutant's
// random growth gets past growthLimit's bound.
func (l *lenControl) stall() int { return l.cap - l.atEntry }

// limit returns the maximum length for mutants of e, an entry of q, after
// execs executions in all.
func (l *lenControl) limit(q *queue, e *entry, execs int64) int {
	if l.cap == 0 {
		l.start(q.entries, execs)
	}
	for l.cap < maxLenControl {
		ln := math.Log(float64(l.cap))
		if float64(execs-l.mark) <= lenControlRuns*ln {
			break
		}
		l.mark += int64(lenControlRuns * ln)
		l.cap = min(maxLenControl, l.cap+max(1, int(ln)))
	}
	return max(l.cap, maxBytesLen(e.vals))
}

// maxLenControl is where the limit stops growing: past it, mutants are
// bounded by the shared memory only.
const maxLenControl = 1 << 20

// growthLimit returns the length limit of a mutant's random growth (bytes
// inserted, copied, spliced) for a base whose longest []byte or string
// value is n bytes, under the length control's limit: at most twice n plus
// 4 bytes, plus stall, how far the limit has risen since the corpus last
// grew. A short entry (the zero input and what comes of it) then has short
// mutants while coverage comes, as libFuzzer's are when it starts from its
// empty input with a 4-byte limit, while an entry of at least half the
// limit grows as before; comparisons' substitutions keep the length
// control's limit. Without stall, an input longer than 2n+4 bytes was never
// tried where no coverage or comparison guides the way (a check in a
// t.Cleanup, which runs after testing's coverage snapshot: go test found
// `len(b) >= 8` there from a one-byte seed in a second, fuzzbox never).
func growthLimit(limit, n, stall int) int {
	return max(n, min(limit, 2*n+4+stall))
}

// maxBytesLen returns the length of the longest []byte or string value.
func maxBytesLen(vals []any) int {
	n := 0
	for _, v := range vals {
		n = max(n, byteLen(v))
	}
	return n
}
