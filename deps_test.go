package fuzzbox_test

// The layering of the fuzzbox module, written down and checked (shared/STYLE.md
// rule 2). Each rule names a package pattern of this module and the non-standard
// packages its transitive dependencies may include; standard-library packages
// are always allowed, except for engine/instrument, which is linked into every
// fuzz target and keeps a frozen list of direct imports.

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"path"
	"strings"
	"testing"
)

const module = "github.com/fuzzbox/fuzzbox"

type layerRule struct {
	pkg   string   // package pattern relative to the module; "x/..." matches x and below
	allow []string // allowed non-standard dependency patterns (module-relative, or external paths with a dot)
}

var layers = []layerRule{
	{"corpus", nil},
	{"event", nil},
	{"engine/ipc", nil},
	{"engine/instrument", nil},
	{"internal/typedhook", nil},
	{"internal/stdlib", nil},
	// Imported by users' typed fuzz tests: nothing of fuzzbox but the hook,
	// the standard library's list and the corpus format (all three
	// standard-library only).
	{"typed", []string{"internal/typedhook", "internal/stdlib", "corpus"}},
	{"engine", []string{"corpus", "event", "engine/ipc", "engine/instrument", "engine/basedeps", "internal/typedhook"}},
	{"engine/basedeps", []string{"corpus"}},
	{"engine/fuzzmain", []string{"engine", "engine/basedeps", "corpus", "event", "engine/ipc", "engine/instrument", "internal/typedhook"}},
	// Linked into libFuzzer binaries (fuzzbox build -libfuzzer): never the engine.
	{"engine/libfuzzer", []string{"corpus", "engine/basedeps"}},
	{".", nil}, // the embedded runtime source
	{"driver/build", []string{".", "corpus"}},
	// The driver runs fuzzing binaries; it never links the engine itself.
	{"driver", []string{"corpus", "event", "engine/ipc", "driver/build", "."}},
	{"analyzers/...", []string{"analyzers/...", "corpus", "internal/stdlib", "golang.org/x/tools/...", "golang.org/x/mod/...", "golang.org/x/sync/..."}},
	// The Bazel rules' Go programs: the runner is a shell over the driver.
	{"rules/private/runner", []string{"driver", "event", "corpus", "driver/build", "engine/ipc", "."}},
	{"rules/private/gentestmain", []string{"driver/build", "corpus", "."}},
	// The command line is a shell over the libraries; like every front end it
	// never links the engine (fuzzing runs in the binaries the driver starts).
	{"cmd/fuzzbox", []string{"driver", "driver/build", "event", "corpus", "engine/ipc", ".", "lsp/...", "analyzers/...", "internal/stdlib", "github.com/sourcegraph/jsonrpc2/...", "golang.org/x/tools/...", "golang.org/x/mod/...", "golang.org/x/sync/..."}},
	{"cmd/fuzzvet", []string{"analyzers/...", "corpus", "internal/stdlib", "golang.org/x/tools/...", "golang.org/x/mod/...", "golang.org/x/sync/..."}},
	{"lsp/...", []string{"lsp/...", "corpus", "event", "driver", "driver/build", "engine/ipc", ".", "analyzers/...", "internal/stdlib", "github.com/sourcegraph/jsonrpc2/...", "golang.org/x/tools/...", "golang.org/x/mod/...", "golang.org/x/sync/..."}},
}

// instrumentImports is the frozen import set of engine/instrument.
var instrumentImports = map[string]bool{"unsafe": true, "sync/atomic": true, "runtime": true}

// matchPattern reports whether p (a full import path) matches pat, a
// module-relative pattern or an external path, either ending in "/..." or exact.
func matchPattern(pat, p string) bool {
	if pat == "." {
		return p == module
	}
	if !strings.Contains(strings.SplitN(pat, "/", 2)[0], ".") {
		pat = path.Join(module, pat)
	}
	if base, ok := strings.CutSuffix(pat, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == pat
}

func isStd(p string) bool { return !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") }

// checkLayers returns one message per dependency that breaks a rule.
// deps maps each module package to its transitive dependencies.
func checkLayers(deps map[string][]string, imports map[string][]string) []string {
	var bad []string
	for p, ds := range deps {
		for _, r := range layers {
			if !matchPattern(r.pkg, p) {
				continue
			}
			for _, d := range ds {
				if isStd(d) || allowed(r.allow, d) {
					continue
				}
				bad = append(bad, fmt.Sprintf("%s must not depend on %s (rule %q)", p, d, r.pkg))
			}
		}
	}
	for _, imp := range imports[module+"/engine/instrument"] {
		if !instrumentImports[imp] {
			bad = append(bad, fmt.Sprintf("engine/instrument must not import %s (frozen import set)", imp))
		}
	}
	return bad
}

func allowed(pats []string, d string) bool {
	for _, pat := range pats {
		if matchPattern(pat, d) {
			return true
		}
	}
	return false
}

// TestLayering checks the module's packages as built normally and with the
// fuzzbox build tag, which fuzzing binaries are built with (it adds the
// comparison hooks of engine/instrument that every target links).
func TestLayering(t *testing.T) {
	for _, tags := range []string{"", "fuzzbox"} {
		t.Run("tags="+tags, func(t *testing.T) {
			out, err := exec.Command("go", "list", "-e", "-tags="+tags, "-f", "{{.ImportPath}}|{{join .Deps \" \"}}|{{join .Imports \" \"}}", "./...").Output()
			if err != nil {
				t.Fatalf("go list: %v", err)
			}
			deps, imports := map[string][]string{}, map[string][]string{}
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				f := strings.Split(sc.Text(), "|")
				deps[f[0]] = strings.Fields(f[1])
				imports[f[0]] = strings.Fields(f[2])
			}
			if _, ok := deps[module+"/corpus"]; !ok {
				t.Fatalf("go list did not report %s/corpus; output:\n%s", module, out)
			}
			for _, msg := range checkLayers(deps, imports) {
				t.Error(msg)
			}
		})
	}
}

// TestCheckLayersCatches proves the checker reports violations, so that a
// passing TestLayering means something.
func TestCheckLayersCatches(t *testing.T) {
	deps := map[string][]string{
		module + "/corpus":     {"fmt", "golang.org/x/tools/go/analysis"},
		module + "/engine/ipc": {module + "/corpus"},
		module + "/engine":     {module + "/corpus", module + "/analyzers/fuzzargs"},
		module + "/analyzers/fuzzargs": {module + "/corpus", "golang.org/x/tools/go/analysis",
			module + "/engine"},
	}
	imports := map[string][]string{module + "/engine/instrument": {"unsafe", "fmt"}}
	got := checkLayers(deps, imports)
	if len(got) != 5 {
		t.Fatalf("checkLayers found %d violations, want 5:\n%s", len(got), strings.Join(got, "\n"))
	}
}
