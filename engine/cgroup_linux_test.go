package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCgroupMemLimit reads the limit from file trees laid out as the
// kernel lays out /proc and /sys/fs/cgroup on a host with cgroup v1 (this
// machine's kind), in a container with a namespaced cgroup v2 and in one
// whose v1 mount's root is its own cgroup. The kernel's own: cmd/fuzzbox's
// TestCgroupOOM.
func TestCgroupMemLimit(t *testing.T) {
	const (
		hybrid = "30 25 0:26 / /sys/fs/cgroup/memory rw,relatime shared:12 - cgroup cgroup rw,memory\n" +
			"31 25 0:27 / /sys/fs/cgroup/cpu rw,relatime shared:13 - cgroup cgroup rw,cpu\n" +
			"32 25 0:28 / /sys/fs/cgroup/unified rw,relatime shared:14 - cgroup2 cgroup2 rw\n"
		v2     = "40 30 0:30 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
		docker = "50 40 0:31 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n"
		spaced = "60 40 0:32 / /mnt/cg\\040v1 rw - cgroup cgroup rw,memory,cpu\n"
	)
	tests := []struct {
		name    string
		cgroup  string
		mounts  string
		files   map[string]string // path under root: limit file contents
		want    uint64
		wantDir string
	}{
		{"v1, an ancestor's limit", "4:memory:/a/b\n1:cpu:/\n0::/\n", hybrid, map[string]string{
			"/sys/fs/cgroup/memory/a/b/memory.limit_in_bytes": "9223372036854771712\n",
			"/sys/fs/cgroup/memory/a/memory.limit_in_bytes":   "1073741824\n",
			"/sys/fs/cgroup/memory/memory.limit_in_bytes":     "9223372036854771712\n",
		}, 1 << 30, "/sys/fs/cgroup/memory/a"},
		{"v1 and v2 both set: the lower", "4:memory:/a\n0::/u\n", hybrid, map[string]string{
			"/sys/fs/cgroup/memory/a/memory.limit_in_bytes": "1073741824\n",
			"/sys/fs/cgroup/unified/u/memory.max":           "536870912\n",
		}, 512 << 20, "/sys/fs/cgroup/unified/u"},
		{"v2 namespaced", "0::/\n", v2, map[string]string{"/sys/fs/cgroup/memory.max": "536870912\n"}, 512 << 20, "/sys/fs/cgroup"},
		{"v2 without a limit", "0::/x\n", v2, map[string]string{"/sys/fs/cgroup/x/memory.max": "max\n", "/sys/fs/cgroup/memory.max": "max\n"}, 0, ""},
		{"v1 mounted at its own cgroup", "4:memory:/docker/abc\n", docker, map[string]string{
			"/sys/fs/cgroup/memory/memory.limit_in_bytes": "2147483648\n",
		}, 2 << 30, "/sys/fs/cgroup/memory"},
		{"an escaped mount point", "4:memory,cpu:/\n", spaced, map[string]string{"/mnt/cg v1/memory.limit_in_bytes": "1048576\n"}, 1 << 20, "/mnt/cg v1"},
		{"no memory controller", "1:cpu:/\n", hybrid, nil, 0, ""},
		{"no limit files", "4:memory:/a\n", hybrid, nil, 0, ""},
		{"garbage", "x\n::\n", "junk\n - \n", nil, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{"/proc/self/cgroup": tt.cgroup, "/proc/self/mountinfo": tt.mounts}
			for p, c := range tt.files {
				files[p] = c
			}
			for p, c := range files {
				p = filepath.Join(root, p)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, dir := cgroupMemLimit(root)
			if got != tt.want || dir != tt.wantDir {
				t.Errorf("cgroupMemLimit = %d, %q; want %d, %q", got, dir, tt.want, tt.wantDir)
			}
		})
	}
	if got, _ := cgroupMemLimit(filepath.Join(t.TempDir(), "none")); got != 0 {
		t.Errorf("without /proc: %d, want 0", got)
	}
}

// TestWorkerOOMFirst: a worker starts as the OOM killer's first choice,
// whatever the coordinator's own score. The kernel's choice under a
// cgroup's limit: cmd/fuzzbox's TestCgroupOOM.
func TestWorkerOOMFirst(t *testing.T) {
	own, err := os.ReadFile("/proc/self/oom_score_adj")
	if err != nil {
		t.Skipf("no oom_score_adj here: %v", err)
	}
	p, err := startProc(os.Args[0], []string{"-test.run=^$"}, []string{fakeModeEnv + "=idle", fakeDirEnv + "=" + t.TempDir()}, 64, time.Minute, startTimeout, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop(10 * time.Second)
	adj, err := os.ReadFile(fmt.Sprintf("/proc/%d/oom_score_adj", p.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(adj)); got != "1000" {
		t.Errorf("worker's oom_score_adj = %s, want 1000 (the coordinator's is %s)", got, strings.TrimSpace(string(own)))
	}
	if got, _ := os.ReadFile("/proc/self/oom_score_adj"); string(got) != string(own) {
		t.Errorf("the coordinator's oom_score_adj changed from %s to %s", own, got)
	}
}

// TestNewWorkerGroup makes the workers' cgroup in a file tree laid out as
// a cgroup v1 memory controller's (the kernel's own: cmd/fuzzbox's
// TestCgroupOOM, which checks that the kernel then kills only there): it
// goes under this process's cgroup with the limit given, after removing
// the group of a coordinator that is gone and not that of one running;
// with cgroup v2 alone there is none.
func TestNewWorkerGroup(t *testing.T) {
	root := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("proc/self/cgroup", "12:cpu:/other\n11:memory:/docker/abc\n0::/\n")
	write("proc/self/mountinfo", "50 40 0:31 /docker /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n")
	own := filepath.Join(root, "sys/fs/cgroup/memory/abc")
	gone := filepath.Join(own, workerGroupPrefix+"2147483646") // above any pid_max
	live := filepath.Join(own, workerGroupPrefix+strconv.Itoa(os.Getppid()))
	for _, d := range []string{gone, live} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g := newWorkerGroup(root, 768<<20)
	if g == nil {
		t.Fatal("no workers' group")
	}
	if want := filepath.Join(own, workerGroupPrefix+strconv.Itoa(os.Getpid())); g.dir != want {
		t.Errorf("group %s, want %s", g.dir, want)
	}
	if b, err := os.ReadFile(filepath.Join(g.dir, "memory.limit_in_bytes")); err != nil || string(b) != "805306368" {
		t.Errorf("limit %q (%v), want 805306368", b, err)
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("the group of a coordinator that is gone is left (%v)", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the group of a running coordinator was removed: %v", err)
	}

	write("proc/self/mountinfo", "40 30 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n")
	if g := newWorkerGroup(root, 768<<20); g != nil {
		t.Errorf("cgroup v2 alone: group %s, want none", g.dir)
	}
}
