package command_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/fuzzbox/fuzzbox/lsp/command"
)

var update = flag.Bool("update", false, "rewrite editors/vscode/src/commands.ts")

var tsPath = filepath.Join("..", "..", "editors", "vscode", "src", "commands.ts")

// TestTypeScript checks that the extension's copy of the command list is
// current (STYLE rule 10: stale, regenerate).
func TestTypeScript(t *testing.T) {
	want := command.TypeScript()
	if *update {
		if err := os.WriteFile(tsPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(tsPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: run go test ./lsp/command -update\n--- got\n%s\n--- want\n%s", tsPath, got, want)
	}
}

func TestNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range command.Names() {
		if seen[n] {
			t.Errorf("duplicate command %s", n)
		}
		seen[n] = true
	}
}
