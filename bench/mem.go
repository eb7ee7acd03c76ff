package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A memSampler polls /proc/meminfo and keeps the highest machine-wide memory
// use (MemTotal - MemAvailable). Where /proc/meminfo is missing it reports 0.
type memSampler struct {
	mu   sync.Mutex
	peak int64 // bytes
	quit chan struct{}
	done chan struct{}
}

func startMemSampler() *memSampler {
	m := &memSampler{quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			if used := memUsed(); used > 0 {
				m.mu.Lock()
				m.peak = max(m.peak, used)
				m.mu.Unlock()
			}
			select {
			case <-m.quit:
				return
			case <-t.C:
			}
		}
	}()
	return m
}

// stop ends sampling and returns the peak in GB (10^9 bytes).
func (m *memSampler) stop() float64 {
	close(m.quit)
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	return float64(m.peak) / 1e9
}

func memUsed() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	var total, avail int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(fields[1], 10, 64)
		switch fields[0] {
		case "MemTotal:":
			total = kb * 1024
		case "MemAvailable:":
			avail = kb * 1024
		}
	}
	return total - avail
}
