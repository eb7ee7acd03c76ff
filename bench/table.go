package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// A summary aggregates the runs of one engine on one target.
type summary struct {
	runs, found int
	medianTTF   float64 // over runs that found the bug; 0 if none did
	medianRate  float64 // execs/s, see minRateSecs; 0 if no run has a rate
	kinds       []string
}

// minRateSecs is the shortest fuzzing time whose execs/s counts: a run that
// fails in its first second measures start-up, not throughput. If no run
// fuzzed that long, every run counts.
const minRateSecs = 5

func summarize(results []runResult, target, engine string) summary {
	var s summary
	var ttfs, rates, shortRates []float64
	kinds := map[string]bool{}
	for _, r := range results {
		if r.Target != target || r.Engine != engine {
			continue
		}
		s.runs++
		switch {
		case r.ExecsPerSec > 0 && r.FuzzS >= minRateSecs:
			rates = append(rates, r.ExecsPerSec)
		case r.ExecsPerSec > 0:
			shortRates = append(shortRates, r.ExecsPerSec)
		}
		if r.Found {
			s.found++
			ttfs = append(ttfs, r.TTF)
			kinds[r.Kind] = true
		}
	}
	if len(rates) == 0 {
		rates = shortRates
	}
	s.medianTTF, s.medianRate = median(ttfs), median(rates)
	for k := range kinds {
		s.kinds = append(s.kinds, k)
	}
	sort.Strings(s.kinds)
	return s
}

// median returns the median of xs, or 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

const dash = "—"

// printTable writes the markdown table and its footer.
func printTable(w io.Writer, cfg config, targets []target, results []runResult) {
	fmt.Fprintln(w, "| target | fuzzbox found | native found | fuzzbox median TTF | native median TTF | TTF ratio |"+
		" fuzzbox execs/s | native execs/s | execs ratio | fuzzbox kind | native kind |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	var totalF, totalN int
	for _, t := range targets {
		f := summarize(results, t.name, engineFuzzbox)
		n := summarize(results, t.name, engineNative)
		totalF += f.found
		totalN += n.found
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", t.name,
			foundCell(f), foundCell(n), secs(f.found, f.medianTTF), secs(n.found, n.medianTTF),
			ratio(f.found > 0 && n.found > 0, f.medianTTF, n.medianTTF),
			rate(f.medianRate), rate(n.medianRate), ratio(true, f.medianRate, n.medianRate),
			kindCell(f), kindCell(n))
	}
	fmt.Fprintf(w, "\nBudget %s per run, -parallel=%d, %d run(s) per target and engine, run one at a time; "+
		"bugs found in total: fuzzbox %d, native %d.\n", cfg.fuzztime, cfg.parallel, cfg.runs, totalF, totalN)
	fmt.Fprintln(w, "TTF (time to failure) is measured from the start of fuzzing, not of the command: native from its "+
		"first \"fuzz: elapsed:\" line to its \"fuzz: minimizing\" (or \"--- FAIL\") line, fuzzbox from its start "+
		"event's elapsed_ms to its first failure event's; build time is excluded for both. Median over the runs that "+
		"found the bug. execs/s is execs/fuzzing time of a run (native: its last stats line; fuzzbox: its done or "+
		"last stats event), median over the runs that fuzzed at least 5 s (all runs if none did). Ratios are fuzzbox/native: TTF ratio < 1 and execs ratio > 1 "+
		"favour fuzzbox.")
}

func foundCell(s summary) string {
	if s.runs == 0 {
		return dash
	}
	return fmt.Sprintf("%d/%d", s.found, s.runs)
}

func secs(found int, v float64) string {
	if found == 0 {
		return dash
	}
	return fmt.Sprintf("%.1fs", v)
}

func rate(v float64) string {
	if v == 0 {
		return dash
	}
	return fmt.Sprintf("%.0f", v)
}

func ratio(ok bool, a, b float64) string {
	if !ok || a == 0 || b == 0 {
		return dash
	}
	return fmt.Sprintf("%.2f", a/b)
}

func kindCell(s summary) string {
	if len(s.kinds) == 0 {
		return dash
	}
	return strings.Join(s.kinds, ", ")
}
