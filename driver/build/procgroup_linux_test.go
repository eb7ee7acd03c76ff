package build

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBuildDiesWithFuzzbox: a build runs in a process group of its own (so
// that Ctrl-C reaches it through fuzzbox alone), which a kill -9 of
// fuzzbox's group did not reach: the build ran on. It dies with the process
// that started it.
func TestBuildDiesWithFuzzbox(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), groupChildEnv+"="+pidFile)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for range 500 {
		data, _ := os.ReadFile(pidFile)
		if pid, _ = strconv.Atoi(string(data)); pid > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pid <= 0 {
		parent.Process.Kill()
		t.Fatal("the command was not started")
	}
	parent.Process.Kill()
	parent.Wait()
	for range 200 {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if _, state, _ := strings.Cut(string(stat), ") "); err != nil || strings.HasPrefix(state, "Z") {
			return // gone, or dead and waiting to be reaped
		}
		time.Sleep(10 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("the command started in a group of its own outlived its parent's kill -9")
}
