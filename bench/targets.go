package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// targetSets are the target modules bench can run (-set), relative to the
// repository root.
var targetSets = map[string]string{
	"planted":   filepath.Join("bench", "targets"),   // planted bugs, one per package
	"realworld": filepath.Join("bench", "realworld"), // historical bugs of public modules at old versions
	"typed":     filepath.Join("bench", "typed"),     // planted bugs behind typed arguments (package typed)
}

// A target is one package of a target module with one Fuzz function.
type target struct {
	name   string // directory name, e.g. "magic32"
	module string // the target module's root directory, e.g. bench/targets
	dir    string // package directory
	fuzz   string // name of its Fuzz function, e.g. "FuzzDecode"
	// bytesFuzz is the name of the target's byte-consuming twin of fuzz,
	// fuzz+"Bytes" (a func(*testing.F) whose fuzz function takes one
	// []byte and builds fuzz's typed arguments from it), or "" if it has
	// none. The go118 engine runs it instead of fuzz: go-118-fuzz-build
	// rewrites the *testing.F of the function it builds, which typed.Fuzz
	// cannot take.
	bytesFuzz string
	// signature, if not nil, tells the target's known bug from other
	// failures: it is matched against "kind=<kind>\n<failure text>". A
	// target without one (every planted target) counts any failure as its
	// bug.
	signature *regexp.Regexp
}

var (
	fuzzFuncRE  = regexp.MustCompile(`(?m)^func (Fuzz\w*)\(\w+ \*testing\.F\)`)
	signatureRE = regexp.MustCompile(`(?m)^//\s*Signature:\s*(.+?)\s*$`)
)

// findTargets lists the targets under root, restricted to names if not empty.
func findTargets(root string, names []string) ([]target, error) {
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return nil, fmt.Errorf("no %s/go.mod; run from the repository root: %w", root, err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("listing targets: %w", err)
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	all := map[string]target{}
	for _, e := range entries {
		if !e.IsDir() || len(want) > 0 && !want[e.Name()] {
			continue
		}
		t, ok, err := loadTarget(root, e.Name())
		if err != nil {
			return nil, err
		}
		if ok {
			all[e.Name()] = t
		}
	}
	if len(names) == 0 {
		for n := range all {
			names = append(names, n)
		}
		sort.Strings(names)
	}
	var out []target
	for _, n := range names {
		t, ok := all[n]
		if !ok {
			return nil, fmt.Errorf("no target %q in %s", n, root)
		}
		out = append(out, t)
	}
	return out, nil
}

// loadTarget reads the target in root/name; ok is false if the directory has
// no Fuzz function.
func loadTarget(root, name string) (t target, ok bool, err error) {
	dir := filepath.Join(root, name)
	fn, bytesFn, err := fuzzFunc(dir)
	if err != nil || fn == "" {
		return target{}, false, err
	}
	sig, err := signature(dir)
	if err != nil {
		return target{}, false, err
	}
	if err := noLeftovers(dir, fn, bytesFn); err != nil {
		return target{}, false, err
	}
	return target{name: name, module: root, dir: dir, fuzz: fn, bytesFuzz: bytesFn, signature: sig}, true, nil
}

// noLeftovers checks that the target has no inputs in testdata/fuzz: every
// run restores the directory it ran in, so a file there was left by a run
// outside the bench (fuzzing the target by hand), and every engine would
// start from it, a reproducer of the bug, found at once.
func noLeftovers(dir string, fns ...string) error {
	for _, fn := range fns {
		seeds := filepath.Join(dir, "testdata", "fuzz", fn)
		if files, _ := os.ReadDir(seeds); fn != "" && len(files) > 0 {
			return fmt.Errorf("target %s: %s holds %d files (%s…), left by a run outside the bench: every run would start from them; remove them", filepath.Base(dir), seeds, len(files), files[0].Name())
		}
	}
	return nil
}

// fuzzFunc returns the one Fuzz function declared in dir's _test.go files,
// or "" if there is none, and its byte-consuming twin FuzzXBytes if dir also
// declares that.
func fuzzFunc(dir string) (fn, bytesFn string, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return "", "", err
	}
	var found []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return "", "", fmt.Errorf("reading target: %w", err)
		}
		for _, m := range fuzzFuncRE.FindAllSubmatch(src, -1) {
			found = append(found, string(m[1]))
		}
	}
	sort.Strings(found)
	if len(found) == 2 && found[1] == found[0]+"Bytes" {
		return found[0], found[1], nil
	}
	if len(found) > 1 {
		return "", "", fmt.Errorf("target %s has %d Fuzz functions %v, want one (and at most its FuzzXBytes twin)", dir, len(found), found)
	}
	if len(found) == 0 {
		return "", "", nil
	}
	return found[0], "", nil
}

// go118Fuzz is the Fuzz function the go118 engine builds: the
// byte-consuming twin if the target has one.
func (t target) go118Fuzz() string {
	if t.bytesFuzz != "" {
		return t.bytesFuzz
	}
	return t.fuzz
}

// signature returns the regular expression of the "// Signature: <re>" line
// in the comments of dir's non-test files, or nil if there is none.
func signature(dir string) (*regexp.Regexp, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var sigs []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading target: %w", err)
		}
		for _, m := range signatureRE.FindAllSubmatch(src, -1) {
			sigs = append(sigs, string(m[1]))
		}
	}
	switch len(sigs) {
	case 0:
		return nil, nil
	case 1:
		re, err := regexp.Compile(sigs[0])
		if err != nil {
			return nil, fmt.Errorf("target %s: bad signature: %w", dir, err)
		}
		return re, nil
	}
	return nil, fmt.Errorf("target %s has %d Signature lines, want at most one", dir, len(sigs))
}

// isKnownBug reports whether a failure of kind with text is t's known bug.
func (t target) isKnownBug(kind, text string) bool {
	return t.signature == nil || t.signature.MatchString("kind="+kind+"\n"+text)
}
