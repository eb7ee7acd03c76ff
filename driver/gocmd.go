package driver

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
)

// The go command helpers shared by the driver's parts (targets, cover).

// goOutput runs cmd and returns its standard output; a failure is reported
// with the first line of the go command's standard error.
func goOutput(cmd *exec.Cmd) ([]byte, error) {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if line := firstLineOf(stderr.String()); line != "" {
			return nil, errors.New(line)
		}
		return nil, err
	}
	return out, nil
}

// firstLineOf returns the first non-blank line of s, trimmed.
func firstLineOf(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
