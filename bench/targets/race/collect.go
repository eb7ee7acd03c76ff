// Package race collects a batch of metric samples, "name=value" separated
// by ';', the way an agent's handler fans a batch out: one goroutine per
// sample parses it, and the totals per name are summed under a lock.
// Latencies may carry a unit ("12ms", "3s"); those are converted to seconds
// and counted in the batch's statistics.
//
// Bug: the conversion path counts the converted samples in the batch's
// stats without the lock (the common path takes it), so two samples with a
// unit in one batch ("a=1ms;b=2s") make two goroutines write the counter at
// once: a data race. Nothing panics and the totals come out right almost
// always, so go test -fuzz without -race finds nothing; with -race it needs
// an input with two units, under the race detector's slowdown; fuzzbox's
// race twin (-racetwin) replays each new corpus entry under -race.
package race

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// A Batch is the result of Collect.
type Batch struct {
	Totals    map[string]float64 // sum of the values per name (latencies in seconds)
	Samples   int                // samples read
	Converted int                // samples that carried a unit
}

// maxSamples bounds a batch.
const maxSamples = 32

// Collect parses and sums the samples of batch.
func Collect(batch string) (*Batch, error) {
	fields := strings.Split(batch, ";")
	if len(fields) > maxSamples {
		return nil, fmt.Errorf("race: %d samples, at most %d", len(fields), maxSamples)
	}
	b := &Batch{Totals: map[string]float64{}}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		errs = make([]error, len(fields))
	)
	for i, f := range fields {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name, v, err := b.parse(f)
			if err != nil {
				errs[i] = err
				return
			}
			mu.Lock()
			b.Totals[name] += v
			b.Samples++
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// units are the latency units a value may carry, in seconds.
var units = []struct {
	suffix string
	scale  float64
}{{"ms", 1e-3}, {"us", 1e-6}, {"s", 1}}

// parse reads one sample.
func (b *Batch) parse(f string) (string, float64, error) {
	name, val, ok := strings.Cut(f, "=")
	if !ok || name == "" {
		return "", 0, fmt.Errorf("race: sample %q is not name=value", f)
	}
	for _, u := range units {
		if num, ok := strings.CutSuffix(val, u.suffix); ok && num != "" {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil {
				return "", 0, fmt.Errorf("race: sample %q: %w", f, err)
			}
			b.Converted++ // the bug: every sample's goroutine writes it, without the lock
			return name, v * u.scale, nil
		}
	}
	v, err := strconv.ParseFloat(val, 64)
	if err != nil {
		return "", 0, fmt.Errorf("race: sample %q: %w", f, err)
	}
	return name, v, nil
}
