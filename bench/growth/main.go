//go:build unix

// Command growth measures a long fuzzing run as it grows (issue 20): it starts
// fuzzbox fuzz -json on one fuzz test, reads the event stream, and every
// -interval writes one CSV row: the memory (RSS) and CPU time of the driver,
// the coordinator (the fuzzing binary the driver starts) and its worker
// processes, the last stats event's execs, execs/s, corpus and edges, the
// size and file count of the cache directory and of the package's
// testdata/fuzz directory, and the machine's load average. plot.sh turns the
// CSV into the PNG in bench/README.md's "The engine as it grows".
//
// It reads /proc, so it measures on Linux only. Run it from the package's
// module, with a fuzzbox binary built from this repository:
//
//	go build -o /tmp/fuzzbox ./cmd/fuzzbox
//	go run ./bench/growth -fuzzbox=/tmp/fuzzbox -pkg=/path/to/go-toml -fuzz=FuzzUnmarshal \
//		-duration=1h -o bench/growth/gotoml.csv
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"
)

type config struct {
	fuzzbox  string        // the fuzzbox binary
	pkg      string        // the package directory the run starts in
	fuzz     string        // the -fuzz regexp
	duration time.Duration // -fuzztime
	interval time.Duration // time between samples
	parallel int           // -parallel
	cacheDir string        // -cachedir; fresh when empty
	out      string        // the CSV file
	events   string        // where the event stream is copied; none when empty
	run      string        // -run
}

func main() {
	var c config
	flag.StringVar(&c.fuzzbox, "fuzzbox", "fuzzbox", "the fuzzbox binary")
	flag.StringVar(&c.pkg, "pkg", ".", "the package directory to fuzz in")
	flag.StringVar(&c.fuzz, "fuzz", "", "the fuzz test (-fuzz regexp; required)")
	flag.DurationVar(&c.duration, "duration", time.Hour, "how long to fuzz (-fuzztime)")
	flag.DurationVar(&c.interval, "interval", 10*time.Second, "time between samples")
	flag.IntVar(&c.parallel, "parallel", 2, "worker processes")
	flag.StringVar(&c.cacheDir, "cachedir", "", "cache directory (default: a fresh temporary one)")
	flag.StringVar(&c.out, "o", "growth.csv", "the CSV file to write")
	flag.StringVar(&c.events, "events", "", "also save the JSON event stream to this file")
	flag.StringVar(&c.run, "run", "^$", "tests to run before fuzzing (-run)")
	flag.Parse()
	if c.fuzz == "" {
		fmt.Fprintln(os.Stderr, "growth: -fuzz is required")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, c); err != nil {
		fmt.Fprintln(os.Stderr, "growth:", err)
		os.Exit(1)
	}
}

// run fuzzes and samples until the run ends or ctx is done.
func run(ctx context.Context, c config) error {
	if c.cacheDir == "" {
		dir, err := os.MkdirTemp("", "growth-cache-")
		if err != nil {
			return fmt.Errorf("cache directory: %w", err)
		}
		c.cacheDir = dir
	}
	out, err := os.Create(c.out)
	if err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	defer out.Close()
	r, err := startRun(ctx, c)
	if err != nil {
		return err
	}
	w := newCSV(out)
	corpusDir := filepath.Join(c.pkg, "testdata", "fuzz")
	t := time.NewTicker(c.interval)
	defer t.Stop()
	for {
		select {
		case <-r.done:
			w.row(r.sample(c.cacheDir, corpusDir))
			return r.wait()
		case <-t.C:
			w.row(r.sample(c.cacheDir, corpusDir))
		}
		if err := w.err(); err != nil {
			return fmt.Errorf("csv: %w", err)
		}
	}
}
