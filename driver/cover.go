package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// CoverConfig configures Cover. The zero value of each field is valid
// unless its comment says otherwise.
type CoverConfig struct {
	Fuzz     string        // regexp matching exactly one fuzz test of the package; required
	CacheDir string        // generated-corpus root, as Config.CacheDir; "" means DefaultCacheDir
	GoCache  bool          // also replay the go command's generated corpus ($GOCACHE/fuzz/<import path>/<FuzzX>)
	CoverPkg string        // packages to measure, as go test -coverpkg; "" means the package
	Tags     string        // build tags, comma-separated
	Timeout  time.Duration // limit of one replay of the whole corpus; 0 means 10 minutes
	HTML     string        // write the HTML report (go tool cover -html) here; "" means none, unless DefaultHTML
	// DefaultHTML, with HTML empty, writes the HTML report to
	// fuzzbox-cover-<package name>-<FuzzX>.html in the temporary directory.
	DefaultHTML bool
	Profile     string // write the text coverage profile here; "" means none
	// PerEntry also replays each entry alone to learn which functions it
	// reaches (FuncCover.Entries): one run of the test binary per entry,
	// for the first MaxEntryReplays entries.
	PerEntry bool
	Dir      string    // where the package argument is resolved; "" means the current directory
	Stderr   io.Writer // the go command's build errors; nil means os.Stderr
}

// MaxEntryReplays bounds the per-entry replays of CoverConfig.PerEntry.
const MaxEntryReplays = 1000

// CoverReport is what a fuzz test's corpus covers. It is the JSON of
// fuzzbox cover -json.
type CoverReport struct {
	Package    string      `json:"package"`  // import path
	Target     string      `json:"target"`   // FuzzX
	CoverPkg   string      `json:"coverpkg"` // the packages measured
	Statements int         `json:"statements"`
	Covered    int         `json:"covered"`
	Percent    float64     `json:"percent"`
	Entries    EntryReport `json:"entries"`
	Files      []FileCover `json:"files"`
	HTML       string      `json:"html,omitempty"`    // the HTML report, when written
	Profile    string      `json:"profile,omitempty"` // the text profile, when written
	FuncTable  string      `json:"-"`                 // go tool cover -func's table
}

// EntryReport says how the corpus replay went.
type EntryReport struct {
	Seeds      int          `json:"seeds"`      // entries replayed that are seeds (f.Add, testdata)
	Generated  int          `json:"generated"`  // entries replayed from the generated corpus
	Passed     []string     `json:"passed"`     // subtest names of the entries that passed
	Failed     []string     `json:"failed"`     // entries that failed (their coverage counts)
	Crashed    []string     `json:"crashed"`    // entries that killed the test binary (coverage not counted)
	Unreadable []Unreadable `json:"unreadable"` // generated-corpus files the testing package refused
	PerEntry   int          `json:"per_entry"`  // entries replayed alone (PerEntry)

	crashedGenerated int // crashed entries from the generated corpus
}

// Unreadable is a refused generated-corpus file.
type Unreadable struct {
	Name  string `json:"name"`
	Error string `json:"error"`
}

// FileCover is the coverage of one source file.
type FileCover struct {
	File       string      `json:"file"` // as in the profile: import path and file name
	Path       string      `json:"path"` // on disk ("" when not found)
	Statements int         `json:"statements"`
	Covered    int         `json:"covered"`
	Funcs      []FuncCover `json:"functions"`
}

// FuncCover is the coverage of one function.
type FuncCover struct {
	Name       string   `json:"name"` // as go tool cover -func names it: F, T.M, (*T).M
	Line       int      `json:"line"`
	EndLine    int      `json:"end_line"`
	Statements int      `json:"statements"`
	Covered    int      `json:"covered"`
	Entries    []string `json:"entries,omitempty"` // with PerEntry: the entries that reach it
}

// ErrReplay is wrapped by Cover's error when the fuzz test died or failed
// before its corpus could be replayed (a finding, not a usage error).
var ErrReplay = errors.New("the corpus could not be replayed")

// Cover replays every corpus entry of one fuzz test of pkg (its f.Add
// seeds, testdata/fuzz/FuzzX/ and the generated corpus) through a stock
// "go test -cover" test binary, in a temporary mirror of the package
// directory (nothing is written into the module), and reports what it
// covers. docs/cover.md has the details.
func Cover(ctx context.Context, cfg CoverConfig, pkg string) (*CoverReport, error) {
	if cfg.Fuzz == "" {
		return nil, errors.New("-fuzz is required")
	}
	re, err := regexp.Compile(cfg.Fuzz)
	if err != nil {
		return nil, fmt.Errorf("-fuzz: %v", err)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Minute
	}
	if pkg == "" {
		pkg = "."
	}
	r := &coverRun{cfg: cfg, fuzzRE: re, pkg: pkg, ctx: ctx}
	return r.run()
}

// coverRun is one Cover call.
type coverRun struct {
	cfg    CoverConfig
	fuzzRE *regexp.Regexp
	pkg    string
	ctx    context.Context
	tmp    string // removed at the end of run
}

// goPackage is what go list tells about the package.
type goPackage struct {
	Dir, ImportPath string
	Module          *struct{ Dir string }
}

func (r *coverRun) goCmd(args ...string) *exec.Cmd {
	cmd := exec.CommandContext(r.ctx, "go", args...)
	cmd.Dir = r.cfg.Dir
	return cmd
}

func (r *coverRun) run() (*CoverReport, error) {
	var err error
	if r.tmp, err = os.MkdirTemp("", "fuzzbox-cover-"); err != nil {
		return nil, err
	}
	defer os.RemoveAll(r.tmp)
	p, err := r.listPackage()
	if err != nil {
		return nil, err
	}
	bin, err := r.build(p)
	if err != nil {
		return nil, err
	}
	dir, err := mirrorPackage(p, filepath.Join(r.tmp, "src"))
	if err != nil {
		return nil, fmt.Errorf("mirroring the package directory: %w", err)
	}
	target, err := r.target(bin, dir, p.ImportPath)
	if err != nil {
		return nil, err
	}
	cache, err := r.copyCache(p.ImportPath, target, filepath.Join(dir, "testdata", "fuzz", target))
	if err != nil {
		return nil, err
	}
	rep := &replay{ctx: r.ctx, bin: bin, dir: dir, target: target, cache: cache, timeout: r.cfg.Timeout, tmp: r.tmp}
	if err := rep.run(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrReplay, err)
	}
	return r.report(p, rep)
}

// listPackage resolves the package argument with go list.
func (r *coverRun) listPackage() (*goPackage, error) {
	args := []string{"list", "-json=Dir,ImportPath,Module"}
	if r.cfg.Tags != "" {
		args = append(args, "-tags="+r.cfg.Tags)
	}
	out, err := goOutput(r.goCmd(append(args, "--", r.pkg)...))
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", r.pkg, err)
	}
	var p goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("go list %s: %w", r.pkg, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s matches more than one package; name one", r.pkg)
	}
	return &p, nil
}

// build compiles a stock coverage test binary of p.
func (r *coverRun) build(p *goPackage) (string, error) {
	bin := filepath.Join(r.tmp, "cover.test")
	args := []string{"test", "-c", "-cover", "-covermode=count", "-coverpkg=" + r.coverpkg(p), "-o", bin}
	if r.cfg.Tags != "" {
		args = append(args, "-tags="+r.cfg.Tags)
	}
	cmd := r.goCmd(append(args, p.ImportPath)...) // in the user's directory, for -coverpkg=./...
	cmd.Stderr = r.cfg.Stderr
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building the coverage test binary of %s: %w", p.ImportPath, err)
	}
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("%s has no test files", p.ImportPath)
	}
	return bin, nil
}

// coverpkg returns the -coverpkg pattern: the option or the package.
func (r *coverRun) coverpkg(p *goPackage) string {
	if r.cfg.CoverPkg != "" {
		return r.cfg.CoverPkg
	}
	return p.ImportPath
}

// target lists the binary's fuzz tests and returns the one -fuzz matches.
func (r *coverRun) target(bin, dir, importPath string) (string, error) {
	cmd := exec.CommandContext(r.ctx, bin, "-test.list=^Fuzz")
	cmd.Dir = dir
	out, err := goOutput(cmd)
	if err != nil {
		return "", fmt.Errorf("listing the fuzz tests of %s: %w", importPath, err)
	}
	var all, matched []string
	for _, name := range strings.Fields(string(out)) {
		if corpus.IsFuzzTestName(name) {
			all = append(all, name)
			if r.fuzzRE.MatchString(name) {
				matched = append(matched, name)
			}
		}
	}
	switch {
	case len(all) == 0:
		return "", fmt.Errorf("%s has no fuzz tests", importPath)
	case len(matched) == 0:
		return "", fmt.Errorf("-fuzz=%s matches no fuzz test in %s (fuzz tests: %s)", r.cfg.Fuzz, importPath, strings.Join(all, ", "))
	case len(matched) > 1:
		return "", fmt.Errorf("-fuzz matches more than one fuzz test: [%s]", strings.Join(matched, " "))
	}
	return matched[0], nil
}

// cacheDirs returns the generated-corpus directories of target.
func (r *coverRun) cacheDirs(importPath, target string) ([]string, error) {
	root := r.cfg.CacheDir
	if root == "" {
		var err error
		if root, err = DefaultCacheDir(importPath); err != nil {
			return nil, err
		}
	}
	dirs := []string{filepath.Join(root, target)}
	if r.cfg.GoCache {
		out, err := goOutput(r.goCmd("env", "GOCACHE"))
		if err != nil {
			return nil, fmt.Errorf("go env GOCACHE: %w", err)
		}
		dirs = append(dirs, filepath.Join(strings.TrimSpace(string(out)), "fuzz", importPath, target))
	}
	return dirs, nil
}

// copyCache copies the generated corpus of target into seedDir (the
// mirror's testdata/fuzz/<target>) and returns the names it added. A name
// already present (corpus names are content hashes) is left as it is.
func (r *coverRun) copyCache(importPath, target, seedDir string) (map[string]bool, error) {
	dirs, err := r.cacheDirs(importPath, target)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(seedDir, 0o777); err != nil {
		return nil, err
	}
	added := map[string]bool{}
	for _, dir := range dirs {
		files, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("reading the generated corpus: %w", err)
		}
		for _, fi := range files {
			dst := filepath.Join(seedDir, fi.Name())
			if !fi.Type().IsRegular() || exists(dst) {
				continue
			}
			if err := copyFile(filepath.Join(dir, fi.Name()), dst); err != nil {
				return nil, fmt.Errorf("copying the generated corpus: %w", err)
			}
			added[fi.Name()] = true
		}
	}
	return added, nil
}
