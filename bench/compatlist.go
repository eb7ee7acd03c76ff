package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// compatList is the default list of the compat set (-compatlist): real fuzz
// tests of public modules and of the standard library.
const compatList = "bench/compat.txt"

// A compatPkg is one line of the list: a package and the fuzz tests of it
// that are fuzzed (its tests and every seed run regardless).
type compatPkg struct {
	module  string   // "path@version", or "std"
	pkg     string   // package directory in the module ("." for its root), or the standard library import path
	fuzz    []string // fuzz test names
	tags    string   // build tags every command uses ("" for none)
	env     []string // NAME=value settings every command's environment gets (GOEXPERIMENT=jsonv2)
	comment string   // the line's trailing "# ..." note, if any
}

// name is the package's short name on -targets and in file names, with
// its environment settings.
func (p compatPkg) name() string {
	name := p.pkg
	if !p.std() {
		name, _, _ = strings.Cut(p.module, "@")
		if p.pkg != "." {
			name += "/" + p.pkg
		}
	}
	return name + p.envSuffix()
}

// label is the package's cell in the table (and its rows' Package): its
// directory, with its environment settings, which tell apart two lines of
// one package (encoding/json with and without GOEXPERIMENT=jsonv2).
func (p compatPkg) label() string { return p.pkg + p.envSuffix() }

func (p compatPkg) envSuffix() string {
	if len(p.env) == 0 {
		return ""
	}
	return " (" + strings.Join(p.env, " ") + ")"
}

func (p compatPkg) std() bool { return p.module == "std" }

// envNameRE matches the name of an environment setting of the list.
var envNameRE = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// readCompatList parses the list: "module@version package FuzzA,FuzzB [tags]
// [NAME=value ...]" or "std importpath FuzzA [tags] [NAME=value ...]", one
// per line; '#' starts a comment.
func readCompatList(path string) ([]compatPkg, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading the compat list (run from the repository root): %w", err)
	}
	defer f.Close()
	var pkgs []compatPkg
	seen := map[string]int{} // module path, package, fuzz test, tags and settings: the line listing it
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, comment, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		want := fmt.Errorf("%s:%d: want \"module@version package FuzzA,FuzzB [tags] [NAME=value ...]\", got %q", path, n, sc.Text())
		if len(fields) < 3 {
			return nil, want
		}
		p := compatPkg{module: fields[0], pkg: fields[1], fuzz: strings.Split(fields[2], ","), comment: strings.TrimSpace(comment)}
		for i, f := range fields[3:] {
			switch name, _, ok := strings.Cut(f, "="); {
			case ok && envNameRE.MatchString(name):
				p.env = append(p.env, f)
			case i == 0 && !ok:
				p.tags = f
			default:
				return nil, want
			}
		}
		if !p.std() && !strings.Contains(p.module, "@") {
			return nil, fmt.Errorf("%s:%d: module %q has no @version", path, n, p.module)
		}
		mod, _, _ := strings.Cut(p.module, "@")
		for _, fz := range p.fuzz {
			if !corpus.IsFuzzTestName(fz) {
				return nil, fmt.Errorf("%s:%d: %q is not a fuzz test name", path, n, fz)
			}
			// Listed twice, a package ran twice and its rows shared a key.
			key := strings.Join(append([]string{mod, p.pkg, fz, p.tags}, p.env...), " ")
			if first, dup := seen[key]; dup {
				return nil, fmt.Errorf("%s:%d: %s %s %s is listed at line %d already", path, n, mod, p.pkg, fz, first)
			}
			seen[key] = n
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, sc.Err()
}

// selectCompat keeps the packages whose name contains one of the filters.
func selectCompat(pkgs []compatPkg, filters []string) []compatPkg {
	if len(filters) == 0 {
		return pkgs
	}
	var out []compatPkg
	for _, p := range pkgs {
		for _, f := range filters {
			if strings.Contains(p.name(), f) || strings.Contains(p.module, f) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}
