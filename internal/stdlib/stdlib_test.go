package stdlib

import (
	"os/exec"
	"strings"
	"testing"
)

// TestContainsGoListStd: every standard library package of the go command
// that runs the test counts as one, and module paths do not.
func TestContainsGoListStd(t *testing.T) {
	out, err := exec.Command("go", "list", "std").Output()
	if err != nil {
		t.Skipf("go list std: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if !Contains(p) {
			t.Errorf("%s is not taken for a standard library package: add its first element to roots", p)
		}
	}
	for _, p := range []string{"example.com/sync", "github.com/x/y", "myapp", ""} {
		if Contains(p) {
			t.Errorf("%q taken for a standard library package", p)
		}
	}
}
