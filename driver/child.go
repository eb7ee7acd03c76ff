package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// Every test binary the driver starts (a fuzzing binary's turns, its fuzz
// test listing, the stock and coverage test binaries of Replay and Cover)
// runs in its package directory through runChild, so that all stop alike.

// stopGrace is how long a test binary has, after SIGINT, to write what it
// found before it is killed.
const stopGrace = 5 * time.Second

// testCmd returns the command running the test binary bin in its package
// directory dir with args, then user (Config.userArgs: last, since a
// positional argument among them ends the flags the binary parses); run it
// with runChild or combined. Its environment
// is the one go test gives a test binary: this process's (with the GOFLAGS
// it had before UseBuildFlags), with PWD the
// package directory and PATH starting with the bin directory of the go
// command's GOROOT there (goBinDir), so that a test that runs "go" runs the
// toolchain that builds the package (after a toolchain switch, the switched
// one), as under go test.
func testCmd(dir, bin string, user []string, args ...string) *exec.Cmd {
	args, own := fuzzboxFlags(args)
	cmd := exec.Command(bin, append(args, user...)...)
	cmd.Dir = dir
	cmd.Env = ChildEnv(cmd.Environ())
	if len(own) > 0 {
		cmd.Env = append(cmd.Env, ipc.FlagsEnv+"="+strings.Join(own, "\n"))
	}
	if gobin := goBinDir(dir); gobin != "" {
		cmd.Env = withPathFirst(cmd.Env, gobin)
	}
	return cmd
}

// fuzzboxFlags splits args into the testing package's and fuzzbox's own
// (-fuzzbox.*), which go to the binary in the environment (ipc.FlagsEnv):
// its command line is then go test's, which a package's init that calls
// flag.Parse accepts.
func fuzzboxFlags(args []string) (test, own []string) {
	for _, a := range args {
		if strings.HasPrefix(a, "-fuzzbox.") {
			own = append(own, a)
		} else {
			test = append(test, a)
		}
	}
	return test, own
}

// goBinDir returns GOROOT/bin of the go command run in dir, or "" when the
// go command cannot say (none in PATH, as in a Bazel sandbox: the test
// binary then gets this process's PATH unchanged).
func goBinDir(dir string) string {
	if goroot := goEnv(dir, "GOROOT"); goroot != "" {
		return filepath.Join(goroot, "bin")
	}
	return ""
}

// withPathFirst returns env with dir first in its PATH, as cmd/go's
// base.AppendPATH puts GOROOT/bin (the last PATH entry of env wins).
func withPathFirst(env []string, dir string) []string {
	name, path := "PATH", ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && (k == "PATH" || runtime.GOOS == "windows" && strings.EqualFold(k, "PATH")) {
			name, path = k, v
		}
	}
	if path == "" {
		return append(env, name+"="+dir)
	}
	return append(env, name+"="+dir+string(os.PathListSeparator)+path)
}

// runChild starts cmd and waits for it. When ctx is cancelled it sends
// SIGINT (a terminal's Ctrl-C has already reached the whole process group;
// a cancelled editor run has not), and kills cmd if it has not exited
// within stopGrace.
func runChild(ctx context.Context, cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	return waitChild(ctx, cmd)
}

// waitChild waits for a started cmd, stopping it as runChild says.
func waitChild(ctx context.Context, cmd *exec.Cmd) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-done:
		return err
	case <-time.After(stopGrace):
		cmd.Process.Kill()
		return fmt.Errorf("%w: %w", errKilledAtStop, <-done)
	}
}

// errKilledAtStop says a test binary did not exit within stopGrace of the
// SIGINT that stopped it, and was killed.
var errKilledAtStop = fmt.Errorf("killed %v after it was told to stop", stopGrace)

// combined runs cmd with runChild and returns its standard output and
// error together and its exit status. The error says why it did not run to
// its end (it could not start, or ctx was cancelled); a non-zero exit
// status is not an error.
func combined(ctx context.Context, cmd *exec.Cmd) (string, int, error) {
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := runChild(ctx, cmd)
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return buf.String(), -1, ctx.Err()
	case errors.As(err, &exit):
		return buf.String(), exit.ExitCode(), nil
	case err != nil:
		return buf.String(), -1, fmt.Errorf("running %s: %w", filepath.Base(cmd.Path), err)
	}
	return buf.String(), 0, nil
}
