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
	other       int     // runs whose failure was not the target's known bug
	otherMsg    string  // the first such failure's kind and message
	medianTTF   float64 // over runs that found the bug; 0 if none did
	medianExecs float64 // executions to the bug, over runs that found it
	medianRate  float64 // execs/s, see minRateSecs; 0 if no run has a rate
	medianEarly float64 // runResult.Early, over the runs that measured it
	kinds       []string
}

// minRateSecs is the shortest fuzzing time whose execs/s counts: a run that
// fails in its first second measures start-up, not throughput. If no run
// fuzzed that long, every run counts.
const minRateSecs = 5

func summarize(results []runResult, target, engine string) summary {
	var s summary
	var ttfs, execs, rates, shortRates, early []float64
	kinds := map[string]bool{}
	for _, r := range results {
		if r.Target != target || r.Engine != engine {
			continue
		}
		s.runs++
		if r.Early > 0 {
			early = append(early, r.Early)
		}
		switch {
		case r.ExecsPerSec > 0 && r.FuzzS >= minRateSecs:
			rates = append(rates, r.ExecsPerSec)
		case r.ExecsPerSec > 0:
			shortRates = append(shortRates, r.ExecsPerSec)
		}
		if r.Found {
			s.found++
			ttfs = append(ttfs, r.TTF)
			execs = append(execs, float64(r.ExecsToFailure))
			kinds[r.Kind] = true
		} else if r.Failed {
			s.other++
			if s.otherMsg == "" {
				s.otherMsg = r.Kind + ": " + r.Message
			}
		}
	}
	if len(rates) == 0 {
		rates = shortRates
	}
	s.medianTTF, s.medianExecs, s.medianRate, s.medianEarly = median(ttfs), median(execs), median(rates), median(early)
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

// engineLabels are the table's names of the engines.
var engineLabels = map[string]string{
	engineFuzzbox:       "fuzzbox",
	engineNative:        "native",
	engineNativeRace:    "native -race",
	engineFuzzboxTwin:   "fuzzbox -racetwin",
	engineFuzzboxNoTwin: "fuzzbox -racetwin=false",
	engineFuzzboxBytes:  "fuzzbox on FuzzXBytes",
	engineFuzzboxSync:   "fuzzbox N×1 synced",
	engineFuzzboxSplit:  "fuzzbox N×1 unsynced",
	engineLibFuzzer:     "libFuzzer+fuzzbox build",
	engineGo118:         "libFuzzer (OSS-Fuzz build)",
}

// printTable writes the markdown table and its footer: per engine, the
// runs that found the known bug, the median time and executions to it and
// execs/s; then the ratios of fuzzbox to every other engine, the failure
// kinds and the other failures.
func printTable(w io.Writer, cfg config, targets []target, results []runResult) {
	engines := cfg.tableEngines()
	var others []string // engines fuzzbox is compared with
	if contains(engines, engineFuzzbox) {
		for _, e := range engines {
			if e != engineFuzzbox {
				others = append(others, e)
			}
		}
	}
	cols := []string{"found", "median TTF", "median execs to bug", "execs/s"}
	if hasInstances(engines) {
		cols = append(cols, "corpus in 0.3 s")
	}
	var head []string
	for _, col := range cols {
		for _, e := range engines {
			head = append(head, label(e)+" "+col)
		}
	}
	for _, col := range []string{"TTF", "execs/s"} {
		for _, e := range others {
			head = append(head, col+" fuzzbox/"+label(e))
		}
	}
	head = append(head, "kinds", "other failures")
	fmt.Fprintf(w, "| target | %s |\n", strings.Join(head, " | "))
	fmt.Fprintf(w, "|---%s|\n", strings.Repeat("|---", len(head)))
	total := map[string]int{}
	for _, t := range targets {
		sums := map[string]summary{}
		for _, e := range engines {
			sums[e] = summarize(results, t.name, e)
			total[e] += sums[e].found
		}
		fmt.Fprintf(w, "| %s | %s |\n", t.name, strings.Join(tableRow(engines, others, sums), " | "))
	}
	var totals []string
	for _, e := range engines {
		totals = append(totals, fmt.Sprintf("%s %d", label(e), total[e]))
	}
	seeds := ""
	if cfg.noSeeds {
		seeds = ", without the fuzz tests' seeds (-noseeds)"
	}
	fmt.Fprintf(w, "\nSet %s%s, budget %s per run, -parallel=%d, %d run(s) per target and engine, one run at a time; "+
		"known bugs found in total: %s.\n", cfg.set, seeds, cfg.fuzztime, cfg.parallel, cfg.runs, strings.Join(totals, ", "))
	fmt.Fprintln(w, "Found counts the runs whose failure is the target's known bug (its package's Signature line; "+
		"planted targets: any failure); other failures are listed apart. TTF (time to failure) is measured from the start "+
		"of fuzzing, not of the command (native: first \"fuzz: elapsed:\" line to \"fuzz: minimizing\" or \"--- FAIL\"; "+
		"fuzzbox: start event to first minimizing or failure event; libFuzzer: INITED line to its ERROR line); build time "+
		"is excluded. go-118's executions are its fuzz function's calls, counted in the binary (libFuzzer's own count also "+
		"has the inputs go-fuzz-headers cannot decode, on which the function is not called). Execs to bug: libFuzzer's final stats; fuzzbox and native: their last stats line before the failure "+
		"plus its rate times the time since (an estimate). Medians over the runs that found the bug. execs/s is "+
		"execs/fuzzing time of a run, median over the runs that fuzzed at least 5 s (all runs if none did). Ratios are "+
		"fuzzbox/other: TTF ratio < 1 and execs/s ratio > 1 favour fuzzbox.")
	if hasInstances(engines) {
		fmt.Fprintln(w, "Corpus in 0.3 s: the inputs that joined the corpus in the first 300 ms of fuzzing (imported ones "+
			"included), per instance for N×1 (the mean of the instances), median over the runs.")
	}
}

// hasInstances reports whether engines has one of N instances of one
// worker, whose table gets the corpus-in-0.3-s columns.
func hasInstances(engines []string) bool {
	return contains(engines, engineFuzzboxSync) || contains(engines, engineFuzzboxSplit)
}

// tableRow is one target's cells after its name.
func tableRow(engines, others []string, sums map[string]summary) []string {
	var cells []string
	for _, e := range engines {
		cells = append(cells, foundCell(sums[e]))
	}
	for _, e := range engines {
		cells = append(cells, secs(sums[e].found, sums[e].medianTTF))
	}
	for _, e := range engines {
		cells = append(cells, count(sums[e].found, sums[e].medianExecs))
	}
	for _, e := range engines {
		cells = append(cells, rate(sums[e].medianRate))
	}
	if hasInstances(engines) {
		for _, e := range engines {
			cells = append(cells, earlyCell(sums[e].medianEarly))
		}
	}
	f := sums[engineFuzzbox]
	for _, e := range others {
		cells = append(cells, ratio(f.found > 0 && sums[e].found > 0, f.medianTTF, sums[e].medianTTF))
	}
	for _, e := range others {
		cells = append(cells, ratio(true, f.medianRate, sums[e].medianRate))
	}
	var kinds, other []string
	for _, e := range engines {
		if k := kindCell(sums[e]); k != dash {
			kinds = append(kinds, label(e)+": "+k)
		}
		if s := sums[e]; s.other > 0 {
			other = append(other, fmt.Sprintf("%s: %d (%s)", label(e), s.other, cellText(s.otherMsg)))
		}
	}
	return append(cells, orDash(strings.Join(kinds, "; ")), orDash(strings.Join(other, "; ")))
}

func count(found int, v float64) string {
	if found == 0 {
		return dash
	}
	return fmt.Sprintf("%.0f", v)
}

// earlyCell is a corpus-in-0.3-s cell: a dash when not measured.
func earlyCell(v float64) string {
	if v == 0 {
		return dash
	}
	return fmt.Sprintf("%.0f", v)
}

func orDash(s string) string {
	if s == "" {
		return dash
	}
	return s
}

// cellText makes s fit a table cell: no pipes, at most 80 bytes.
func cellText(s string) string {
	s = strings.ReplaceAll(s, "|", "/")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
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
