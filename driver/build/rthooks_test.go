package build

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRTHooksAsmArgs: the hooks' file joins the assembly of the runtime's
// asm_GOARCH.s for amd64 and arm64 only, not its symbol ABI pass nor other
// packages' or files' assembly.
func TestRTHooksAsmArgs(t *testing.T) {
	dir := t.TempDir()
	rt := filepath.Join("/goroot", "src", "runtime")
	asm := func(extra ...string) []string {
		return append([]string{"/tool/asm", "-p", "runtime", "-o", filepath.Join(dir, "x.o")}, extra...)
	}
	for _, c := range []struct {
		args []string
		add  string // the file added, "" for none
	}{
		{asm(filepath.Join(rt, "asm_amd64.s")), "fuzzbox_hooks_amd64.s"},
		{asm(filepath.Join(rt, "asm_arm64.s")), "fuzzbox_hooks_arm64.s"},
		{asm(filepath.Join(rt, "asm_386.s")), ""},
		{asm(filepath.Join(rt, "memmove_amd64.s")), ""},
		{asm("-gensymabis", filepath.Join(rt, "asm_amd64.s")), ""},
		{[]string{"/tool/asm", "-p", "example.com/p", "-o", filepath.Join(dir, "y.o"), "/src/p/asm_amd64.s"}, ""},
	} {
		got, err := rtHooksAsmArgs(c.args)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.add == "" && !slices.Equal(got, c.args):
			t.Errorf("%q: changed to %q", c.args, got)
		case c.add != "" && (len(got) != len(c.args)+1 || got[len(got)-1] != filepath.Join(dir, c.add)):
			t.Errorf("%q: got %q, want %s added", c.args, got, c.add)
		case c.add != "":
			src, err := os.ReadFile(got[len(got)-1])
			if err != nil || !strings.Contains(string(src), "TEXT runtime·libfuzzerTraceConstCmp8<ABIInternal>(SB),NOSPLIT|NOFRAME,$0-24") ||
				!strings.Contains(string(src), "JMP\truntime·fuzzboxTraceConstCmp8<ABIInternal>(SB)") || !strings.Contains(string(src), "#ifndef const_retSledSize") {
				t.Errorf("%s: %v\n%s", c.add, err, src)
			}
		}
	}
}

// TestRTHooksPackageArgs: engine/instrument's compile loses hooks_link.go
// where it has rthooks.go (amd64, arm64), and keeps it elsewhere.
func TestRTHooksPackageArgs(t *testing.T) {
	with := []string{"/tool/compile", "-p", runtimeModule + "/engine/instrument", "/r/engine/instrument/hooks.go", "/r/engine/instrument/hooks_link.go", "/r/engine/instrument/rthooks.go"}
	if got := rtHooksPackageArgs(with); slices.Contains(got, "/r/engine/instrument/hooks_link.go") || len(got) != len(with)-1 {
		t.Errorf("with rthooks.go: %q", got)
	}
	without := []string{"/tool/compile", "-p", runtimeModule + "/engine/instrument", "/r/engine/instrument/hooks.go", "/r/engine/instrument/hooks_link.go"}
	if got := rtHooksPackageArgs(without); !slices.Equal(got, without) {
		t.Errorf("without rthooks.go: %q", got)
	}
}
