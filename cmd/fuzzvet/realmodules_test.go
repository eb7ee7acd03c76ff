package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// realPackages are packages with Fuzz tests in real modules, pinned. Of the
// modules the issue names, golang.org/x/text, golang.org/x/image and
// gopkg.in/yaml.v3 have no Fuzz tests at these versions, so other modules
// with Fuzz tests stand in for them.
var realPackages = []string{
	"golang.org/x/net/dns/dnsmessage@v0.62.0",
	"golang.org/x/net/quic@v0.62.0",
	"github.com/pelletier/go-toml/v2@v2.4.3",
	"github.com/google/uuid@v1.6.0",
	"github.com/BurntSushi/toml@v1.6.0",
	"golang.org/x/mod/sumdb/tlog@v0.42.0",
	// f.Add of an any (decoded JSON) for a string argument: fuzzadd
	// reported it until it left interface values unchecked.
	"github.com/yuin/goldmark/fuzz@v1.8.7",
}

// TestRealModules runs go vet -vettool=fuzzvet over the Fuzz tests of real
// modules fetched through the module proxy and expects no diagnostic, while
// checking (FUZZVET_DEBUG) that fuzzvet saw every Fuzz test of them.
func TestRealModules(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches modules through the module proxy; skipped with -short")
	}
	tool := buildFuzzvet(t)
	mod := t.TempDir()
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/realmodules\n\ngo 1.26\n")
	goCmd(t, mod, nil, append([]string{"get", "-t"}, realPackages...)...)

	var pkgs []string
	want := 0
	for _, p := range realPackages {
		path, _, _ := strings.Cut(p, "@")
		pkgs = append(pkgs, path)
		n := countFuzzTests(t, mod, path)
		if n == 0 {
			t.Fatalf("%s has no Fuzz tests: pick another package", path)
		}
		want += n
	}

	cmd := exec.Command("go", append([]string{"vet", "-vettool=" + tool}, pkgs...)...)
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "FUZZVET_DEBUG=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go vet -vettool=fuzzvet: %v\n%s", err, out)
	}
	if diag := regexp.MustCompile(`(?m)^.*:\d+:\d+: .*$`).FindAll(out, -1); len(diag) > 0 {
		t.Errorf("fuzzvet reported on correct code:\n%s", bytes.Join(diag, []byte("\n")))
	}
	got := 0
	for _, m := range regexp.MustCompile(`fuzzvet: checked (\d+) fuzz tests in \S+`).FindAllSubmatch(out, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		got += n
	}
	if got != want {
		t.Errorf("fuzzvet checked %d fuzz tests, the packages have %d:\n%s", got, want, out)
	}
	t.Logf("checked %d fuzz tests in %d packages", got, len(pkgs))
}

var fuzzDecl = regexp.MustCompile(`(?m)^func Fuzz[^(]*\(\w+ \*testing\.F\)`)

// countFuzzTests counts the FuzzXxx(f *testing.F) declarations in the
// _test.go files of pkg.
func countFuzzTests(t *testing.T, mod, pkg string) int {
	out := goCmd(t, mod, nil, "list", "-f", `{{.Dir}}{{range .TestGoFiles}} {{.}}{{end}}{{range .XTestGoFiles}} {{.}}{{end}}`, pkg)
	fields := strings.Fields(string(out))
	n := 0
	for _, f := range fields[1:] {
		data, err := os.ReadFile(filepath.Join(fields[0], f))
		if err != nil {
			t.Fatal(err)
		}
		n += len(fuzzDecl.FindAll(data, -1))
	}
	return n
}

// buildFuzzvet builds this command into a temporary directory.
func buildFuzzvet(t *testing.T) string {
	t.Helper()
	tool := filepath.Join(t.TempDir(), "fuzzvet")
	// A unique binary per build: go vet caches results per vet tool, and a
	// cached run prints no FUZZVET_DEBUG counts.
	nonce := fmt.Sprintf("-ldflags=-X=main.buildNonce=%d", time.Now().UnixNano())
	goCmd(t, ".", nil, "build", nonce, "-o", tool, ".")
	return tool
}

// goCmd runs the go command in dir and returns its stdout; it fails the test
// on error.
func goCmd(t *testing.T, dir string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}
