package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/fuzzbox/fuzzbox/driver/build"
)

// The go command, as every part of the driver runs it (go list, go env, go
// test -c, go tool cover and covdata). The fuzzing build is driver/build's.

// goCmd returns the go command with args, to run in dir ("" = the current
// directory); cancelling ctx kills it.
func goCmd(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	return cmd
}

// goEnvs caches goEnv's answers, by directory and name.
var goEnvs sync.Map

// goEnv returns the go command's environment variable name (go env) in
// dir, or "" when the go command cannot say (none in PATH, as in a Bazel
// sandbox). Answers are cached for the process.
func goEnv(dir, name string) string {
	key := [2]string{dir, name}
	if v, ok := goEnvs.Load(key); ok {
		return v.(string)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	v := ""
	if env, err := goEnvJSON(ctx, dir, name); err == nil {
		v = env[name]
	}
	goEnvs.Store(key, v)
	return v
}

// goEnvJSON runs go env -json names in dir and returns the values: the
// text form is a line a name, unless GOFLAGS holds -json, which makes it
// this one.
func goEnvJSON(ctx context.Context, dir string, names ...string) (map[string]string, error) {
	cmd := goCmd(ctx, dir, append([]string{"env", "-json"}, names...)...)
	cmd.Env = build.GoEnvEnviron(os.Environ())
	out, err := output(cmd)
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	if err := json.Unmarshal(out, &env); err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	return env, nil
}

// goOutput runs the go command in dir and returns its standard output; a
// failure is reported with the first line of its standard error.
func goOutput(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return output(goCmd(ctx, dir, args...))
}

// goRun runs the go command in dir with its standard error going to
// stderr (build errors are the user's to read).
func goRun(ctx context.Context, dir string, stderr io.Writer, args ...string) error {
	cmd := goCmd(ctx, dir, args...)
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w", args[0], err)
	}
	return nil
}

// output runs cmd and returns its standard output; a failure is reported
// with the first line of its standard error that is not the go command's
// note of a module it fetches ("go: downloading ...", which precedes the
// error on a machine whose module cache lacks some).
func output(cmd *exec.Cmd) ([]byte, error) {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		// The go command's whole message: its first line alone lost
		// what to do ("go: inconsistent vendoring in DIR:" without "run:
		// go mod vendor").
		var lines []string
		for _, l := range strings.Split(stderr.String(), "\n") {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "go: downloading ") && len(lines) < maxErrLines {
				lines = append(lines, strings.TrimRight(l, " \t\r"))
			}
		}
		if len(lines) > 0 {
			return nil, errors.New(strings.TrimSpace(strings.Join(lines, "\n")))
		}
		return nil, err
	}
	return out, nil
}

// maxErrLines bounds the lines of a go command's error output kept in the
// error output returns.
const maxErrLines = 20

// firstLineOf returns the first non-blank line of s, trimmed.
func firstLineOf(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
