#!/bin/sh
# plot.sh turns a CSV of bench/growth into a PNG of three panels over the
# run's minutes: memory (RSS of the coordinator, the largest worker, all
# workers, the driver), throughput (execs/s over the last minute, the same per
# second of the workers' CPU time, and the machine's load average),
# and size (corpus entries, the cache directory's MB).
#
#	bench/growth/plot.sh bench/growth/gotoml.csv bench/growth/gotoml.png "go-toml v2.4.3 FuzzUnmarshal"
#
# It needs gnuplot (Debian: apt-get install gnuplot-nox).
set -eu
in=$1
out=$2
title=${3:-$(basename "$in" .csv)}
data=$(mktemp)
trap 'rm -f "$data"' EXIT

# Columns out: minutes, coordinator, largest worker, all workers, driver
# (MiB), execs/s and execs per worker CPU-second over the last minute (6
# samples of 10 s), load, corpus, cache MB. The workers' CPU is
# workers_cpu_total_s where the CSV has it; in older CSVs (workers_cpu_s,
# the live workers only) a worker's restart drops it, and a window over one
# has no CPU rate.
awk -F, -v w=6 'NR == 1 {
	for (i = 1; i <= NF; i++) col[$i] = i
	cpucol = ("workers_cpu_total_s" in col) ? col["workers_cpu_total_s"] : col["workers_cpu_s"]
	next
}
{
	n = NR - 1
	t[n] = $col["t_s"]; x[n] = $col["execs"]; cpu[n] = $cpucol
	rate = "NaN"; cpurate = "NaN"; p = n - w
	if (p >= 1 && t[n] > t[p] && x[n] >= x[p]) rate = (x[n] - x[p]) / (t[n] - t[p])
	if (p >= 1 && cpu[n] > cpu[p] && x[n] >= x[p]) cpurate = (x[n] - x[p]) / (cpu[n] - cpu[p])
	if ($col["coord_rss_kb"] > 0)
		printf "%.2f %.1f %.1f %.1f %.1f %s %s %s %d %.2f\n", t[n] / 60,
			$col["coord_rss_kb"] / 1024, $col["workers_rss_max_kb"] / 1024, $col["workers_rss_sum_kb"] / 1024,
			$col["driver_rss_kb"] / 1024, rate, cpurate, $col["load1"], $col["corpus"], $col["cache_bytes"] / 1048576
}' "$in" > "$data"

gnuplot <<GP
set terminal pngcairo size 900,1000 font "sans,10"
set output "$out"
set multiplot layout 3,1 title "$title"
set grid
set key top left opaque box
set xlabel "minutes"
set ylabel "RSS (MiB)"
set yrange [0:*]
plot "$data" using 1:2 with lines lw 2 title "coordinator", \
     "" using 1:3 with lines lw 2 title "largest worker", \
     "" using 1:4 with lines title "all workers", \
     "" using 1:5 with lines title "driver (fuzzbox)"
set ylabel "executions per second"
set y2label "load average (1 min)"
set y2tics
set ytics nomirror
plot "$data" using 1:6 with lines lc rgb "#bbbbbb" title "execs/s (wall clock, last minute)", \
     "" using 1:7 with lines lw 2 lc rgb "#0060c0" title "execs per worker CPU-second (last minute)", \
     "" using 1:8 axes x1y2 with lines lc rgb "#c04000" title "load average (right)"
set ylabel "corpus entries"
set y2label "cache directory (MB)"
plot "$data" using 1:9 with lines lw 2 title "corpus entries", \
     "" using 1:10 axes x1y2 with lines lw 2 title "cache directory MB (right)"
unset multiplot
GP
