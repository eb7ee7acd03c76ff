package build

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildRefusesOldGo puts a go command that reports Go 1.25 first on
// PATH: the build stops at once with a message that says what to do.
func TestBuildRefusesOldGo(t *testing.T) {
	bin := t.TempDir()
	fake := "#!/bin/sh\nif [ \"$1 $2 $3\" = \"env -json GOVERSION\" ]; then echo '{\"GOVERSION\": \"go1.25.3\", \"GOMOD\": \"/m/go.mod\", \"GOROOT\": \"/goroot\"}'; exit 0; fi\necho unexpected go \"$@\" >&2; exit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	const want = "the go command here is go1.25.3, and fuzzbox supports Go 1.26 and Go 1.27; set GOTOOLCHAIN="
	_, err := Build(context.Background(), Options{Dir: t.TempDir(), Out: filepath.Join(t.TempDir(), "x.test"), Toolexec: []string{"fuzzbox", "toolexec"}})
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Build with Go 1.25: %v", err)
	}
	_, err = BuildLibFuzzer(context.Background(), LibFuzzerOptions{Dir: t.TempDir(), OutDir: t.TempDir(), Toolexec: []string{"fuzzbox", "toolexec"}, Linker: "cc"})
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("BuildLibFuzzer with Go 1.25: %v", err)
	}
}

func TestUntestedNote(t *testing.T) {
	if n := untested("go1.27.4"); n != "" {
		t.Errorf("go1.27.4: note %q", n)
	}
	if n := untested("go1.28.0"); !strings.Contains(n, "go1.28.0 is newer") {
		t.Errorf("go1.28.0: note %q", n)
	}
}
