//go:build unix

package main

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestCancelTerminatesFirst: a cancelled run's process group gets SIGTERM
// (its handler runs and it exits on its own), not SIGKILL.
func TestCancelTerminatesFirst(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "sh", "-c", "trap 'echo terminated; exit 0' TERM; echo ready; while :; do :; done")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	waited := setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(stdout)
	if line, err := r.ReadString('\n'); line != "ready\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	start := time.Now()
	cancel()
	rest, _ := io.ReadAll(r)
	cmd.Wait()
	waited()
	out := string(rest)
	if !strings.Contains(out, "terminated") {
		t.Errorf("output %q: the shell did not get SIGTERM", out)
	}
	if d := time.Since(start); d >= stopGrace {
		t.Errorf("stopping took %s, the SIGKILL grace", d)
	}
}
