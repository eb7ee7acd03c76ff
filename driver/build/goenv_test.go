package build

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGoEnvEnviron: go env's own flags leave GOFLAGS, quoted words stay
// whole (a -w inside a quoted -ldflags is the linker's), and an
// environment without them is returned as it is.
func TestGoEnvEnviron(t *testing.T) {
	for _, c := range []struct{ goflags, want string }{
		{"-ldflags=-s -w", "-ldflags=-s"},
		{"-mod=mod --changed -w=true -u", "-mod=mod"},
		{`'-ldflags=-X a=b -w' -w -tags=x`, `'-ldflags=-X a=b -w' -tags=x`},
		{`"-gcflags=-l 'x'" -w`, `"-gcflags=-l 'x'"`},
		{"-mod=mod -wx", "-mod=mod -wx"}, // not go env's
		{"", ""},
	} {
		env := []string{"GOENV=off", "GOFLAGS=-u", "GOFLAGS=" + c.goflags}
		got := GoEnvEnviron(env)
		if want := []string{"GOENV=off", "GOFLAGS=-u", "GOFLAGS=" + c.want}; !slices.Equal(got, want) {
			t.Errorf("GOFLAGS=%s: %q, want %q", c.goflags, got, want)
		}
		if env[2] != "GOFLAGS="+c.goflags {
			t.Errorf("GOFLAGS=%s: the environment given was changed", c.goflags)
		}
	}
	if env := []string{"PATH=/bin", "GOENV=off"}; !slices.Equal(GoEnvEnviron(env), env) {
		t.Errorf("without GOFLAGS: %q", GoEnvEnviron(env))
	}
}

// TestGoEnvEnvironFile: GOFLAGS that go env -w wrote reaches go env too
// (its every command failed with -json, as with the environment's); the
// environment's, when set, is the one the go command reads.
func TestGoEnvEnvironFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "env")
	if err := os.WriteFile(file, []byte("GOPROXY=off\nGOFLAGS=-mod=mod\n# x\nGOFLAGS=-ldflags=-s -w\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	only := filepath.Join(t.TempDir(), "env")
	if err := os.WriteFile(only, []byte("GOFLAGS=-w\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ env, want []string }{
		{[]string{"GOENV=" + file}, []string{"GOENV=" + file, "GOFLAGS=-ldflags=-s"}},
		{[]string{"GOENV=" + file, "GOFLAGS="}, []string{"GOENV=" + file, "GOFLAGS=", "GOFLAGS=-ldflags=-s"}},
		{[]string{"GOENV=" + file, "GOFLAGS=-mod=mod"}, []string{"GOENV=" + file, "GOFLAGS=-mod=mod"}},
		{[]string{"GOENV=off"}, []string{"GOENV=off"}},
		{[]string{"GOENV=" + only}, []string{"GOENV=" + only, "GOFLAGS= "}}, // empty, the file's would count
	} {
		if got := GoEnvEnviron(c.env); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.env, got, c.want)
		}
	}
	// The go command agrees: go env -json runs with the result.
	cmd := exec.Command("go", "env", "-json", "GOFLAGS")
	cmd.Env = GoEnvEnviron(append(os.Environ(), "GOENV="+file, "GOFLAGS="))
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), `"GOFLAGS": "-ldflags=-s"`) {
		t.Errorf("go env -json GOFLAGS: %v\n%s", err, out)
	}
}
