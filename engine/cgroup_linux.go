package engine

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The kernel's memory limits beside -rss_limit_mb. A run in a container
// (a CI job, a Kubernetes pod) has its processes in a cgroup whose memory
// limit the kernel enforces with its OOM killer: when the workers together
// reach it, one is killed by SIGKILL, with no stack and no message. The
// coordinator reads the limit at start and warns when -parallel workers of
// -rss_limit_mb each do not fit in it (memoryFit), and it reads the
// kernel's count of OOM kills (/proc/vmstat) when a worker is started and
// when it is found killed, so that a report of an OOM kill says what the
// kernel did rather than what is likely (outsideKill).

// cgroupMemLimit returns the memory limit of the cgroup this process is in,
// the lowest of it and its ancestors' (cgroup v1's memory controller or
// cgroup v2), in bytes, and the directory that has it; 0 when there is
// none or it cannot be read. root prefixes every path read ("" but in
// tests).
func cgroupMemLimit(root string) (limit uint64, dir string) {
	for _, g := range ownCgroups(root) {
		for d := g.dir; ; d = path.Dir(d) {
			if l := readMemLimit(filepath.Join(root, d), g.v2); l > 0 && (limit == 0 || l < limit) {
				limit, dir = l, d
			}
			if d == g.point || d == "/" || !strings.HasPrefix(d, g.point) {
				break
			}
		}
	}
	return limit, dir
}

// An ownCgroup is this process's cgroup directory under one memory
// controller's mount (cgroup v1's memory or cgroup v2).
type ownCgroup struct {
	dir, point string // the directory and the mount point it is under
	v2         bool
}

// ownCgroups returns this process's cgroup directories, one per memory
// controller's mount, from /proc/self/cgroup and /proc/self/mountinfo;
// none when they cannot be read. root prefixes the files read ("" but in
// tests), not the paths returned.
func ownCgroups(root string) []ownCgroup {
	groups, err := os.ReadFile(filepath.Join(root, "/proc/self/cgroup"))
	if err != nil {
		return nil
	}
	mounts, err := os.ReadFile(filepath.Join(root, "/proc/self/mountinfo"))
	if err != nil {
		return nil
	}
	var own []ownCgroup
	for _, m := range cgroupMounts(mounts) {
		p, ok := cgroupPath(groups, m.v2)
		if !ok {
			continue
		}
		rel, ok := strings.CutPrefix(p, m.root)
		if !ok {
			rel = "/" // a namespaced cgroup: the mount's root is ours
		}
		own = append(own, ownCgroup{dir: path.Join(m.point, rel), point: m.point, v2: m.v2})
	}
	return own
}

// A cgroupMount is a mount of cgroup v2, or of cgroup v1 with the memory
// controller, from /proc/self/mountinfo.
type cgroupMount struct {
	root, point string // the cgroup path mounted, and where
	v2          bool
}

// cgroupMounts parses mountinfo (proc(5)): "id parent dev root point
// options [optional...] - fstype source superoptions".
func cgroupMounts(mountinfo []byte) []cgroupMount {
	var ms []cgroupMount
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 3 {
			continue
		}
		switch {
		case g[0] == "cgroup2":
			ms = append(ms, cgroupMount{root: unescapeMount(f[3]), point: unescapeMount(f[4]), v2: true})
		case g[0] == "cgroup" && hasOption(g[2], "memory"):
			ms = append(ms, cgroupMount{root: unescapeMount(f[3]), point: unescapeMount(f[4])})
		}
	}
	return ms
}

// unescapeMount undoes mountinfo's octal escapes of space, tab, newline
// and backslash.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func hasOption(opts, o string) bool { return slices.Contains(strings.Split(opts, ","), o) }

// cgroupPath returns this process's cgroup path from /proc/self/cgroup's
// lines "id:controllers:path": the v2 one ("0::path") or the v1 memory
// controller's.
func cgroupPath(groups []byte, v2 bool) (string, bool) {
	for _, line := range strings.Split(string(groups), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		if v2 && f[0] == "0" && f[1] == "" || !v2 && hasOption(f[1], "memory") {
			return f[2], true
		}
	}
	return "", false
}

// noMemLimit: cgroup v1 reports "no limit" as the largest page-aligned
// int64; anything from 2^62 up is taken as none.
const noMemLimit = 1 << 62

// readMemLimit reads the memory limit of cgroup directory dir, 0 if none.
func readMemLimit(dir string, v2 bool) uint64 {
	name := "memory.limit_in_bytes"
	if v2 {
		name = "memory.max"
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return 0
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n >= noMemLimit { // v2 writes "max"
		return 0
	}
	return n
}

// oomKills returns the kernel's count of processes its OOM killer killed
// since boot (the oom_kill line of /proc/vmstat, Linux 4.13 and later),
// every cgroup's included; ok is false when it cannot be read.
func oomKills() (n uint64, ok bool) {
	b, err := os.ReadFile("/proc/vmstat")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, found := strings.CutPrefix(line, "oom_kill "); found {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// The workers' own memory cgroup. In a cgroup the workers do not fit in
// (memoryFit), the kernel may, once the cgroup reaches its limit, neither
// kill a process nor let any run: every process of the cgroup reclaims the
// others' code pages from its page faults, each reclaim counts as
// progress, and the OOM killer is never called (watched under Go 1.27:
// 10 s to over 4 minutes, the coordinator stalled too, so its watchdog
// could not act). So the coordinator puts its workers in a child cgroup
// whose limit leaves it coordinatorMB: the workers reach their limit
// first, and the coordinator, below its own, runs on, stops a stalled
// worker at the timeout and reports what the kernel did. Made only with
// cgroup v1's memory controller where this process may write its cgroup
// (root, as in most containers on such hosts); cgroup v2 allows a child
// with its own limit only in a delegated subtree without processes, which
// a run is not in, and the workers stay in the run's cgroup there.

// workerGroupPrefix starts the name of a workers' cgroup, followed by the
// coordinator's process id.
const workerGroupPrefix = "fuzzbox-workers-"

// A workerGroup is the workers' cgroup directory.
type workerGroup struct{ dir string }

// newWorkerGroup makes a workers' cgroup with a memory limit of limit
// bytes under this process's cgroup v1 memory directory, or returns nil
// where it cannot. root prefixes every path ("" but in tests). It first
// removes the groups of coordinators no longer running (a killed one's).
func newWorkerGroup(root string, limit uint64) *workerGroup {
	groups := ownCgroups(root)
	i := slices.IndexFunc(groups, func(g ownCgroup) bool { return !g.v2 })
	if i < 0 {
		return nil
	}
	own := filepath.Join(root, groups[i].dir)
	removeStaleWorkerGroups(own)
	dir := filepath.Join(own, workerGroupPrefix+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil
	}
	if err := os.WriteFile(filepath.Join(dir, "memory.limit_in_bytes"), []byte(strconv.FormatUint(limit, 10)), 0o644); err != nil {
		os.Remove(dir)
		return nil
	}
	return &workerGroup{dir: dir}
}

// removeStaleWorkerGroups removes the workers' cgroups in dir whose
// coordinator is gone; the kernel refuses to remove one with a process.
func removeStaleWorkerGroups(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, de := range ents {
		pid, ok := strings.CutPrefix(de.Name(), workerGroupPrefix)
		if !ok || !de.IsDir() {
			continue
		}
		if _, err := os.Stat("/proc/" + pid); errors.Is(err, fs.ErrNotExist) {
			os.Remove(filepath.Join(dir, de.Name()))
		}
	}
}

// add moves process pid into the group: its memory from then on counts
// against the group's limit (cgroup v1 leaves what it had where it was).
func (g *workerGroup) add(pid int) {
	if g != nil {
		os.WriteFile(filepath.Join(g.dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644)
	}
}

// remove removes the group once its workers have exited (for up to a
// second: a killed worker leaves its cgroup as its memory is freed).
func (g *workerGroup) remove() {
	if g == nil {
		return
	}
	for range 50 {
		if err := os.Remove(g.dir); err == nil || errors.Is(err, fs.ErrNotExist) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
