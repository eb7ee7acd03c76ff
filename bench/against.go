package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Two fuzzbox builds compared (-against): every engine that runs the
// fuzzbox binary also runs with the second one, and which build goes first
// alternates run by run, so that the machine's drift falls on both alike.
// Their times to the bug are then compared target by target, a miss
// counting as the budget: the medians' ratio, the chance that a run of one
// build was sooner than a run of the other, and a permutation test's p,
// with the geometric mean of the ratios and its bootstrap interval.
// Sessions measured engine changes so by hand (bench/README.md: "Issue 22:
// imports as an instance's own finds", "A confirming re-run's shorter
// wait"); the heavy tails of these times need many runs and a test, not
// two medians.

// againstSuffix marks the runs of -against's build: engine fuzzbox's runs
// with it are engine "fuzzbox@against" in the results and the table.
const againstSuffix = "@against"

// againstable reports whether engine runs the fuzzbox binary, and so runs
// with -against's too.
func againstable(engine string) bool {
	switch engine {
	case engineFuzzbox, engineFuzzboxBytes, engineFuzzboxSync, engineFuzzboxSplit, engineFuzzboxTwin, engineFuzzboxNoTwin:
		return true
	}
	return false
}

// tableEngines are the engines of the results and the table: cfg.engines,
// each that runs the fuzzbox binary followed by its run with -against's.
func (cfg config) tableEngines() []string {
	if cfg.against == "" {
		return cfg.engines
	}
	var out []string
	for _, e := range cfg.engines {
		out = append(out, e)
		if againstable(e) {
			out = append(out, e+againstSuffix)
		}
	}
	return out
}

// runOrder is the order in which run i of engine runs the builds: "" for
// -fuzzbox's, againstSuffix for -against's; the first alternates.
func (cfg config) runOrder(engine string, i int) []string {
	switch {
	case cfg.against == "" || !againstable(engine):
		return []string{""}
	case i%2 == 1:
		return []string{"", againstSuffix}
	}
	return []string{againstSuffix, ""}
}

// label is an engine's name in the table.
func label(engine string) string {
	if base, ok := strings.CutSuffix(engine, againstSuffix); ok {
		return engineLabels[base] + " (against)"
	}
	return engineLabels[engine]
}

// ttfs are the times to the bug of engine's runs on target, a run that
// did not find it counting as budget, and how many found it.
func ttfs(results []runResult, target, engine string, budget float64) (times []float64, found int) {
	for _, r := range results {
		if r.Target == target && r.Engine == engine {
			if r.Found {
				times = append(times, r.TTF)
				found++
			} else {
				times = append(times, budget)
			}
		}
	}
	return times, found
}

// pSooner is the chance that a run of a was sooner than a run of b, ties
// counting half: 0.5 when neither tends to be sooner (the Mann–Whitney
// statistic over the pairs).
func pSooner(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range a {
		for _, y := range b {
			switch {
			case x < y:
				s++
			case x == y:
				s += 0.5
			}
		}
	}
	return s / float64(len(a)*len(b))
}

// permutations is how many relabellings permutationP draws.
const permutations = 10000

// permutationP is a two-sided permutation test's p of the difference of
// a's and b's medians: the share of random relabellings of the pooled runs
// whose difference is at least the observed one.
func permutationP(a, b []float64, r *rand.Rand) float64 {
	obs := math.Abs(median(a) - median(b))
	pool := append(append([]float64(nil), a...), b...)
	hit := 0
	for range permutations {
		r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		if math.Abs(median(pool[:len(a)])-median(pool[len(a):])) >= obs-1e-12 {
			hit++
		}
	}
	return float64(hit) / permutations
}

// pair is one target's times to the bug with both builds.
type pair struct {
	target, engine string
	build, against []float64
	foundB, foundA int
}

// bootstraps is how many resamplings geoInterval draws.
const bootstraps = 2000

// geoMean is the geometric mean of the ratios.
func geoMean(ratios []float64) float64 {
	var sum float64
	for _, x := range ratios {
		sum += math.Log(x)
	}
	return math.Exp(sum / float64(len(ratios)))
}

// medianRatios are the pairs' ratios of medians, of the runs as they are
// or, with r, of each pair's runs resampled with replacement.
func medianRatios(pairs []pair, r *rand.Rand) []float64 {
	resample := func(xs []float64) []float64 {
		if r == nil {
			return xs
		}
		out := make([]float64, len(xs))
		for i := range out {
			out[i] = xs[r.IntN(len(xs))]
		}
		return out
	}
	out := make([]float64, len(pairs))
	for i, p := range pairs {
		out[i] = median(resample(p.build)) / median(resample(p.against))
	}
	return out
}

// geoInterval is the 95% bootstrap interval of the pairs' geoMean: each
// pair's runs resampled with replacement.
func geoInterval(pairs []pair, r *rand.Rand) (lo, hi float64) {
	means := make([]float64, bootstraps)
	for i := range means {
		means[i] = geoMean(medianRatios(pairs, r))
	}
	sort.Float64s(means)
	return means[bootstraps*25/1000], means[bootstraps*975/1000-1]
}

// printComparison writes the comparison of the two builds: a row per
// target and engine run with both, where either found the bug (and
// neither median is 0, which no ratio can take).
func printComparison(w io.Writer, cfg config, targets []target, results []runResult) {
	budget := cfg.fuzztime.Seconds()
	var pairs []pair
	for _, t := range targets {
		for _, e := range cfg.tableEngines() {
			if !strings.HasSuffix(e, againstSuffix) {
				continue
			}
			base := strings.TrimSuffix(e, againstSuffix)
			p := pair{target: t.name, engine: base}
			p.build, p.foundB = ttfs(results, t.name, base, budget)
			p.against, p.foundA = ttfs(results, t.name, e, budget)
			if len(p.build) > 0 && len(p.against) > 0 && p.foundB+p.foundA > 0 && median(p.build) > 0 && median(p.against) > 0 {
				pairs = append(pairs, p)
			}
		}
	}
	if len(pairs) == 0 {
		return
	}
	r := rand.New(rand.NewPCG(1, 2)) // the same table for the same results
	fmt.Fprintf(w, "\n| target | engine | build: found, median TTF | against: found, median TTF | build / against | P(build sooner) | p |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|\n")
	for _, p := range pairs {
		mb, ma := median(p.build), median(p.against)
		fmt.Fprintf(w, "| %s | %s | %d/%d, %.2f s | %d/%d, %.2f s | %.2f | %.2f | %.2f |\n", p.target, engineLabels[p.engine],
			p.foundB, len(p.build), mb, p.foundA, len(p.against), ma, mb/ma, pSooner(p.build, p.against), permutationP(p.build, p.against, r))
	}
	mean := geoMean(medianRatios(pairs, nil))
	lo, hi := geoInterval(pairs, r)
	fmt.Fprintf(w, "\nBuilds compared: %s (build) against %s (against), %d run(s) of each per target, which went first "+
		"alternating run by run. Geometric mean of build / against over the %d rows: %.2f (95%% bootstrap interval %.2f–%.2f). "+
		"A run that missed the bug counts as the budget (%s). P(build sooner): the chance that a run of the build was sooner "+
		"than one of -against's (0.5: no difference); p: a permutation test of the medians' difference (%d relabellings).\n",
		orDash(cfg.fuzzbox), cfg.against, cfg.runs, len(pairs), mean, lo, hi, cfg.fuzztime, permutations)
}

// checkAgainst checks -against: a fuzzbox binary there is, for a set the
// engines run on, with an engine that runs fuzzbox.
func (cfg config) checkAgainst() error {
	if cfg.against == "" {
		return nil
	}
	if cfg.set == "compat" {
		return fmt.Errorf("-against is for -set=planted, realworld or typed")
	}
	if !slices.ContainsFunc(cfg.engines, againstable) {
		return fmt.Errorf("-against needs an engine that runs fuzzbox (fuzzbox, fuzzbox-sync, …)")
	}
	if fi, err := os.Stat(cfg.against); err != nil || fi.IsDir() {
		return fmt.Errorf("-against=%s: not a fuzzbox binary", cfg.against)
	}
	return nil
}

// runSide runs engine once on t with -fuzzbox's build (side "") or
// -against's (againstSuffix), whose logs go to logDir/against.
func runSide(ctx context.Context, cfg config, t target, engine, side string, run int, logDir string, bins lfBinaries) runResult {
	if side == "" {
		return runTarget(ctx, cfg, t, engine, run, logDir, bins)
	}
	c := cfg
	c.fuzzbox = cfg.against
	dir := filepath.Join(logDir, "against")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return runResult{Target: t.name, Engine: engine + side, Run: run, Note: err.Error()}
	}
	r := runTarget(ctx, c, t, engine, run, dir, bins)
	r.Engine = engine + side
	return r
}
