//go:build unix

package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// header names the CSV columns: seconds since start; the last stats event;
// failure and flaky events so far; RSS (kB) and CPU seconds of the driver,
// the coordinator and its worker processes (sum and largest; CPU summed over
// the live ones, and in workers_cpu_total_s over all the coordinator's
// children, those that exited too, so that a restart does not reset it);
// the cache directory and testdata/fuzz; the load average. Columns are only
// ever added at the end: plot.sh reads them by name.
var header = []string{
	"t_s", "execs", "execs_per_sec", "corpus", "edges", "failures", "flaky",
	"driver_rss_kb", "coord_rss_kb", "coord_cpu_s",
	"workers", "workers_rss_max_kb", "workers_rss_sum_kb", "workers_cpu_s",
	"cache_files", "cache_bytes", "corpus_files", "corpus_bytes", "load1",
	"workers_cpu_total_s",
}

// A csvWriter writes samples, flushing every row so an interrupted run
// keeps its rows.
type csvWriter struct{ w *csv.Writer }

func newCSV(out io.Writer) *csvWriter {
	w := &csvWriter{csv.NewWriter(out)}
	w.w.Write(header)
	return w
}

func (w *csvWriter) row(s sample) {
	var maxRSS, sumRSS int64
	var cpu float64
	for _, p := range s.workers {
		maxRSS, sumRSS, cpu = max(maxRSS, p.rssKB), sumRSS+p.rssKB, cpu+p.cpu
	}
	w.w.Write([]string{
		f1(s.elapsed.Seconds()), itoa(s.stats.Execs), f1(s.stats.ExecsPerSec), itoa(s.stats.Corpus), itoa(s.stats.Edges),
		itoa(s.failures), itoa(s.flaky),
		itoa(s.driver.rssKB), itoa(s.coordinator.rssKB), f1(s.coordinator.cpu),
		itoa(len(s.workers)), itoa(maxRSS), itoa(sumRSS), f1(cpu),
		itoa(s.cache.files), itoa(s.cache.bytes), itoa(s.corpus.files), itoa(s.corpus.bytes), fmt.Sprintf("%.2f", s.load1),
		f1(cpu + s.coordinator.childCPU),
	})
	w.w.Flush()
}

func (w *csvWriter) err() error { return w.w.Error() }

func itoa[T int | int64](v T) string { return strconv.FormatInt(int64(v), 10) }

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
