package build

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestProcsReader: the link step names the first package outside the
// standard library and fuzzbox whose archive refers to runtime.GOMAXPROCS
// or runtime.NumCPU, and adds nothing when none does.
func TestProcsReader(t *testing.T) {
	dir := t.TempDir()
	goroot := filepath.Join(dir, "goroot")
	if err := os.MkdirAll(filepath.Join(goroot, "src", "testing"), 0o777); err != nil {
		t.Fatal(err)
	}
	archive := func(name, content string) string {
		p := filepath.Join(dir, name+".a")
		if err := os.WriteFile(p, []byte("!<arch>\n"+content), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	n := 0
	cfg := func(lines ...string) string {
		n++
		p := filepath.Join(dir, fmt.Sprintf("importcfg%d", n))
		if err := os.WriteFile(p, []byte("# import config\n"+strings.Join(lines, "\n")+"\n"), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	std := "packagefile testing=" + archive("testing", "runtime.GOMAXPROCS")
	own := "packagefile github.com/fuzzbox/fuzzbox/engine=" + archive("engine", "runtime.GOMAXPROCS")
	plain := "packagefile example.com/plain=" + archive("plain", "runtime.gopanic")
	reads := "packagefile example.com/reads=" + archive("reads", "\x00runtime.NumCPU\x00")
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{std, own, plain}, ""},
		{[]string{std, own, plain, reads}, "example.com/reads"},
		{[]string{"packagefile example.com/gone=" + filepath.Join(dir, "missing.a"), plain}, ""},
	} {
		if got := procsReader(cfg(c.lines...), goroot); got != c.want {
			t.Errorf("procsReader(%q) = %q, want %q", c.lines, got, c.want)
		}
	}

	link := filepath.Join(goroot, "pkg", "tool", "linux_amd64", "link")
	args, err := linkArgs([]string{link, "-o", "x.test", "-importcfg", cfg(std, reads, plain, own), "main.a"})
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.Index(args, "-X"); i != 1 || args[2] != procsReaderVar+"=example.com/reads" {
		t.Errorf("linkArgs = %q, want -X %s=example.com/reads after the linker", args, procsReaderVar)
	}
	plainArgs := []string{link, "-o", "x.test", "-importcfg", cfg(std, plain), "main.a"}
	if args, _ := linkArgs(plainArgs); !slices.Equal(args, plainArgs) {
		t.Errorf("linkArgs without a reader = %q, want them unchanged", args)
	}
	// Build's links leave out DWARF.
	t.Setenv(noDWARFEnv, "1")
	if args, _ := linkArgs(plainArgs); !slices.Equal(args, slices.Concat(plainArgs[:1], []string{"-w"}, plainArgs[1:])) {
		t.Errorf("linkArgs with %s=1 = %q, want -w after the linker", noDWARFEnv, args)
	}
	if args, _ := linkArgs([]string{link, "-V=full"}); !slices.Equal(args, []string{link, "-V=full"}) {
		t.Errorf("linkArgs of the version query = %q, want it unchanged", args)
	}
}
