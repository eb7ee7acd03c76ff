//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A proc is one process as /proc shows it.
type proc struct {
	pid, ppid int
	comm      string
	rssKB     int64   // VmRSS
	cpu       float64 // user + system CPU seconds
	childCPU  float64 // user + system CPU seconds of its children that have exited and been waited for
}

// A procTree is every process readable in /proc, by pid.
type procTree map[int]proc

// clockTick is USER_HZ, the unit of /proc/<pid>/stat's CPU times: 100 on
// every Linux architecture Go supports.
const clockTick = 100

// readProcs reads /proc. Processes that exit while it reads are left out.
func readProcs() procTree {
	t := procTree{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			t[pid] = p
		}
	}
	return t
}

// readProc reads /proc/<pid>/stat and VmRSS from /proc/<pid>/status.
func readProc(pid int) (proc, bool) {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return proc{}, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	open, close := strings.IndexByte(string(stat), '('), strings.LastIndexByte(string(stat), ')')
	if open < 0 || close < open {
		return proc{}, false
	}
	f := strings.Fields(string(stat[close+1:]))
	if len(f) < 15 {
		return proc{}, false
	}
	p := proc{pid: pid, comm: string(stat[open+1 : close])}
	p.ppid, _ = strconv.Atoi(f[1])
	p.cpu = ticks(f[11]) + ticks(f[12])      // utime, stime
	p.childCPU = ticks(f[13]) + ticks(f[14]) // cutime, cstime
	p.rssKB = statusKB(filepath.Join(dir, "status"), "VmRSS:")
	return p, true
}

// ticks converts a /proc/<pid>/stat CPU time to seconds.
func ticks(field string) float64 {
	n, _ := strconv.ParseInt(field, 10, 64)
	return float64(n) / clockTick
}

// statusKB returns the kB value of one field of a /proc status file, 0 if
// it has none.
func statusKB(path, field string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

func (t procTree) get(pid int) proc { return t[pid] }

// children returns pid's child processes.
func (t procTree) children(pid int) []proc {
	var kids []proc
	for _, p := range t {
		if p.ppid == pid {
			kids = append(kids, p)
		}
	}
	return kids
}

// coordinator returns the fuzzing binary the driver runs (a child named
// *.test; the go command's build processes are not), or a zero proc.
func (t procTree) coordinator(driver int) proc {
	for _, p := range t.children(driver) {
		if strings.HasSuffix(p.comm, ".test") {
			return p
		}
	}
	return proc{}
}

// loadAverage returns the 1-minute load average, 0 if unknown.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// A dirSize is the regular files under a directory.
type dirSize struct {
	files int
	bytes int64
}

// measureDir walks dir; a missing directory measures zero.
func measureDir(dir string) dirSize {
	var d dirSize
	filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return nil
		}
		if info, err := e.Info(); err == nil {
			d.files++
			d.bytes += info.Size()
		}
		return nil
	})
	return d
}
