package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// CoverOptions are what Cover measures and writes, beyond the Config
// every operation shares. The zero value of each field is valid.
type CoverOptions struct {
	GoCache  bool   // also replay the go command's generated corpus ($GOCACHE/fuzz/<import path>/<FuzzX>)
	CoverPkg string // packages to measure, as go test -coverpkg (resolved in Config.Dir); "" means the target's package
	HTML     string // write the HTML report (go tool cover -html) here; "" means none, unless DefaultHTML
	// DefaultHTML, with HTML empty, writes the HTML report to
	// fuzzbox-cover-<last element of the import path>-<FuzzX>.html in the
	// temporary directory.
	DefaultHTML bool
	Profile     string // write the text coverage profile here; "" means none
	// PerEntry also replays each entry alone to learn which functions it
	// reaches (FuncCover.Entries): one run of the test binary per entry,
	// for the first MaxEntryReplays entries.
	PerEntry bool
}

// MaxEntryReplays bounds the per-entry replays of CoverOptions.PerEntry.
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
	File       string       `json:"file"` // as in the profile: import path and file name
	Path       string       `json:"path"` // on disk ("" when not found)
	Statements int          `json:"statements"`
	Covered    int          `json:"covered"`
	Funcs      []FuncCover  `json:"functions"`
	Blocks     []BlockCover `json:"blocks"` // the profile's blocks of the file, in its order
}

// BlockCover is one basic block of the coverage profile (a line of go test
// -coverprofile's text format).
type BlockCover struct {
	StartLine  int `json:"start_line"` // 1-based
	StartCol   int `json:"start_col"`  // 1-based byte column
	EndLine    int `json:"end_line"`
	EndCol     int `json:"end_col"` // byte column just after the block
	Statements int `json:"statements"`
	Count      int `json:"count"` // executions by the whole corpus; 0 = never reached
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

// Cover replays every corpus entry of target t (its f.Add seeds,
// testdata/fuzz/FuzzX/ and the generated corpus in cfg.CacheDir) through a
// stock "go test -cover" test binary, in a temporary mirror of the package
// directory (nothing is written into the module), and reports what it
// covers. Of cfg it reads Tags, Vet, CacheDir, Dir (where go test -c runs, for
// -coverpkg patterns), ReplayLimit (one run over the whole corpus), Short,
// TestArgs and Stderr. docs/cover.md has the details.
func Cover(ctx context.Context, cfg Config, t Target, opts CoverOptions) (*CoverReport, error) {
	if !corpus.IsFuzzTestName(t.Name) {
		return nil, fmt.Errorf("cover: %q is not a fuzz test name", t.Name)
	}
	r := &coverRun{cfg: cfg, opts: opts, t: t, ctx: ctx}
	return r.run()
}

// RunCover does what fuzzbox cover does with its command line: it resolves
// the one fuzz test cfg.Fuzz selects in pkg (ResolveOne), measures what its
// corpus covers (Cover) and prints the report (out). With out.JSON that is
// the report as indented JSON, with the entries that reach each function
// (opts.PerEntry) and no HTML unless opts.HTML asks; otherwise the function
// table (with funcs), the summary and the path of the HTML report, written
// by default (opts.DefaultHTML). An error goes on one line to out.Stderr.
// RunCover returns the exit code: ExitFailure for a corpus that could not be
// replayed (ErrReplay) or an entry that failed, crashed or could not be read
// (EntryReport.Clean), ExitError for any other error.
func RunCover(ctx context.Context, cfg Config, pkg string, opts CoverOptions, funcs bool, out Output) int {
	cfg.Stderr, opts.PerEntry, opts.DefaultHTML = out.Stderr, out.JSON, !out.JSON
	t, err := ResolveOne(ctx, cfg, pkg)
	var rep *CoverReport
	if err == nil {
		rep, err = Cover(ctx, cfg, t, opts)
	}
	if err != nil {
		fmt.Fprintf(out.Stderr, "%s: %s\n", out.Prefix, oneLine(err))
		if errors.Is(err, ErrReplay) {
			return ExitFailure
		}
		return ExitError
	}
	rep.write(out.Stdout, out.JSON, funcs)
	if !rep.Entries.Clean() {
		return ExitFailure
	}
	return ExitOK
}

// write prints cr as RunCover does.
func (cr *CoverReport) write(w io.Writer, asJSON, funcs bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(cr)
		return
	}
	if funcs {
		io.WriteString(w, cr.FuncTable)
	}
	io.WriteString(w, cr.Summary())
	fmt.Fprintf(w, "report: %s\n", cr.HTML)
}

// Clean reports whether every entry replayed: none failed, crashed or could
// not be read.
func (e EntryReport) Clean() bool {
	return len(e.Failed)+len(e.Crashed)+len(e.Unreadable) == 0
}

// coverRun is one Cover call.
type coverRun struct {
	cfg  Config
	opts CoverOptions
	t    Target
	p    *pkgInfo // t's package
	ctx  context.Context
	tmp  string // removed at the end of run
}

func (r *coverRun) run() (*CoverReport, error) {
	var err error
	if r.p, err = r.pkg(); err != nil {
		return nil, err
	}
	var release func()
	if r.tmp, release, err = workDir("cover"); err != nil {
		return nil, err
	}
	defer release()
	bin, err := r.build()
	if err != nil {
		return nil, err
	}
	dir, err := mirrorPackage(r.p.Dir, r.p.moduleDir(), filepath.Join(r.tmp, "src"))
	if err != nil {
		return nil, fmt.Errorf("mirroring the package directory: %w", err)
	}
	cache, err := r.copyCache(filepath.Join(dir, "testdata", "fuzz", r.t.Name))
	if err != nil {
		return nil, err
	}
	rep := &replay{ctx: r.ctx, bin: bin, dir: dir, target: r.t.Name, cache: cache, limit: r.cfg.replayLimit(), user: r.cfg.userArgs(), tmp: r.tmp}
	if err := rep.run(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrReplay, err)
	}
	return r.report(rep)
}

// pkg returns what Resolve learned of the target's package, or asks go
// list in its directory for a target made elsewhere.
func (r *coverRun) pkg() (*pkgInfo, error) {
	if r.t.pkg != nil && r.t.pkg.binary == "" {
		return r.t.pkg, nil
	}
	ps, err := listPackages(r.ctx, r.t.Dir, []string{"."}, r.cfg.Tags)
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", r.t.Dir, err)
	}
	return ps[0], nil
}

// build compiles a stock coverage test binary of the package.
func (r *coverRun) build() (string, error) {
	bin := filepath.Join(r.tmp, "cover.test")
	args := append([]string{"test", "-c", "-cover", "-covermode=count", "-coverpkg=" + r.coverpkg(), "-o", bin}, r.cfg.stockBuildFlags()...)
	if err := goRun(r.ctx, r.buildDir(), r.cfg.stderr(), append(args, r.p.ImportPath)...); err != nil {
		return "", fmt.Errorf("building the coverage test binary of %s: %w", r.p.ImportPath, err)
	}
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("%s has no test files", r.p.ImportPath)
	}
	return bin, nil
}

// buildDir is where the coverage test binary is built: the user's
// directory, for a -coverpkg=./... there, unless the package lies in a
// module that directory is not in (a nested module named by its path, as
// fuzzbox fuzz takes it; go build would look for it in the outer module),
// then the package's own directory.
func (r *coverRun) buildDir() string {
	cwd, err := filepath.Abs(r.cfg.Dir)
	mod := r.p.moduleDir()
	if err != nil || mod == "" {
		return r.cfg.Dir
	}
	if rel, err := filepath.Rel(mod, cwd); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return r.p.Dir
	}
	return r.cfg.Dir
}

// coverpkg returns the -coverpkg pattern: the option or the package.
func (r *coverRun) coverpkg() string {
	if r.opts.CoverPkg != "" {
		return r.opts.CoverPkg
	}
	return r.p.ImportPath
}

// cacheDirs returns the generated-corpus directories of the target.
func (r *coverRun) cacheDirs() ([]string, error) {
	root, err := r.cfg.cacheDir(Target{Package: r.p.ImportPath})
	if err != nil {
		return nil, err
	}
	dirs := []string{filepath.Join(root, r.t.Name)}
	if r.opts.GoCache {
		env, err := goEnvJSON(r.ctx, r.cfg.Dir, "GOCACHE")
		if err != nil {
			return nil, fmt.Errorf("go env GOCACHE: %w", err)
		}
		dirs = append(dirs, filepath.Join(env["GOCACHE"], "fuzz", r.p.ImportPath, r.t.Name))
	}
	return dirs, nil
}

// copyCache copies the generated corpus of the target into seedDir (the
// mirror's testdata/fuzz/<target>) and returns the names it added. A name
// already present (corpus names are content hashes) is left as it is.
func (r *coverRun) copyCache(seedDir string) (map[string]bool, error) {
	dirs, err := r.cacheDirs()
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
