package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

func init() {
	register(&command{name: "cover", short: "HTML coverage report of what a fuzz test's corpus reaches", run: runCover})
}

const coverUsage = `usage: fuzzbox cover -fuzz=FuzzX [flags] [package]

Replays every corpus entry of one fuzz test (its f.Add seeds, the seed corpus
in testdata/fuzz/FuzzX/ and the generated corpus in the cache dir) through a
stock "go test -cover" test binary and writes an HTML coverage report, as
"go tool cover -html" does, of the lines the corpus reaches.

The replay runs in a temporary mirror of the package directory; nothing is
written into the module. An entry that crashes the test binary (panic,
os.Exit, hang) is skipped and replayed no more; its coverage is not counted.
See docs/cover.md.

Exit status: 0 report written, 1 report written but some entry failed,
crashed or could not be read, 2 usage or build error.

Flags:
`

// coverFlags are the flags of fuzzbox cover.
type coverFlags struct {
	fuzz, cachedir, coverpkg, out, profile, tags string
	funcs, gocache                               bool
	timeout                                      time.Duration
}

func (f *coverFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.fuzz, "fuzz", "", "regexp matching the fuzz test whose corpus to replay (required)")
	fs.StringVar(&f.cachedir, "cachedir", "", "directory of the generated corpus, as for fuzzbox fuzz (default: the user cache dir, fuzzbox/fuzz/<import path>)")
	fs.BoolVar(&f.gocache, "gocache", false, "also replay the go command's generated corpus ($GOCACHE/fuzz/<import path>/<FuzzX>)")
	fs.StringVar(&f.coverpkg, "coverpkg", "", "packages to measure, as go test -coverpkg (default: the package)")
	fs.StringVar(&f.out, "o", "", "HTML report file (default: fuzzbox-cover-<pkg>-<FuzzX>.html in the temp dir)")
	fs.StringVar(&f.profile, "coverprofile", "", "also write the text coverage profile to this file")
	fs.BoolVar(&f.funcs, "func", false, "print per-function coverage (go tool cover -func) to stdout")
	fs.StringVar(&f.tags, "tags", "", "comma-separated build tags")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "limit of one replay of the whole corpus; an entry still running then counts as crashed")
}

func runCover(args []string, stdout, stderr io.Writer) int {
	var f coverFlags
	fs := flag.NewFlagSet("cover", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, coverUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return exitOK
		}
		return coverUsageError(stderr, fs, err.Error())
	}
	switch {
	case f.fuzz == "":
		return coverUsageError(stderr, fs, "-fuzz is required")
	case fs.NArg() > 1:
		return coverUsageError(stderr, fs, "one package at a time")
	case f.timeout <= 0:
		return coverUsageError(stderr, fs, "-timeout must be > 0")
	}
	re, err := regexp.Compile(f.fuzz)
	if err != nil {
		return coverUsageError(stderr, fs, "-fuzz: "+err.Error())
	}
	pkg := "."
	if fs.NArg() == 1 {
		pkg = fs.Arg(0)
	}
	r := &coverRun{flags: f, fuzzRE: re, pkg: pkg, stdout: stdout, stderr: stderr}
	code, err := r.run()
	if err != nil {
		fmt.Fprintf(stderr, "fuzzbox cover: %s\n", oneLine(err))
	}
	return code
}

func coverUsageError(stderr io.Writer, fs *flag.FlagSet, msg string) int {
	fmt.Fprintf(stderr, "fuzzbox cover: %s\n%s", msg, coverUsage)
	fs.SetOutput(stderr)
	fs.PrintDefaults()
	return exitUsage
}

// coverRun is one invocation of fuzzbox cover.
type coverRun struct {
	flags          coverFlags
	fuzzRE         *regexp.Regexp
	pkg            string
	stdout, stderr io.Writer
	tmp            string // removed at the end of run
}

// goPackage is what go list tells about the package.
type goPackage struct {
	Dir, ImportPath string
	Module          *struct{ Dir string }
}

// run does the work and returns the exit code, with an error to print
// for codes other than exitOK.
func (r *coverRun) run() (int, error) {
	var err error
	if r.tmp, err = os.MkdirTemp("", "fuzzbox-cover-"); err != nil {
		return exitUsage, err
	}
	defer os.RemoveAll(r.tmp)
	p, err := r.listPackage()
	if err != nil {
		return exitUsage, err
	}
	bin, err := r.build(p)
	if err != nil {
		return exitUsage, err
	}
	dir, err := mirrorPackage(p, filepath.Join(r.tmp, "src"))
	if err != nil {
		return exitUsage, fmt.Errorf("mirroring the package directory: %w", err)
	}
	target, err := r.target(bin, dir, p.ImportPath)
	if err != nil {
		return exitUsage, err
	}
	cache, err := r.copyCache(p.ImportPath, target, filepath.Join(dir, "testdata", "fuzz", target))
	if err != nil {
		return exitUsage, err
	}
	rep := &replay{bin: bin, dir: dir, target: target, cache: cache, timeout: r.flags.timeout, tmp: r.tmp}
	if err := rep.run(); err != nil {
		return exitFinding, err
	}
	return r.report(p, rep)
}

// listPackage resolves the package argument with go list.
func (r *coverRun) listPackage() (*goPackage, error) {
	args := []string{"list", "-json=Dir,ImportPath,Module"}
	if r.flags.tags != "" {
		args = append(args, "-tags="+r.flags.tags)
	}
	out, err := goCmd(append(args, "--", r.pkg)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", r.pkg, cmdErr(err))
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
	if r.flags.tags != "" {
		args = append(args, "-tags="+r.flags.tags)
	}
	cmd := goCmd(append(args, p.ImportPath)...) // in the user's directory, for -coverpkg=./...
	cmd.Stderr = r.stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building the coverage test binary of %s: %w", p.ImportPath, err)
	}
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("%s has no test files", p.ImportPath)
	}
	return bin, nil
}

// coverpkg returns the -coverpkg pattern: the flag or the package.
func (r *coverRun) coverpkg(p *goPackage) string {
	if r.flags.coverpkg != "" {
		return r.flags.coverpkg
	}
	return p.ImportPath
}

// target lists the binary's fuzz tests and returns the one -fuzz matches.
func (r *coverRun) target(bin, dir, importPath string) (string, error) {
	cmd := exec.Command(bin, "-test.list=^Fuzz")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("listing the fuzz tests of %s: %w", importPath, cmdErr(err))
	}
	var all, matched []string
	for _, name := range strings.Fields(string(out)) {
		if strings.HasPrefix(name, "Fuzz") {
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
		return "", fmt.Errorf("-fuzz=%s matches no fuzz test in %s (fuzz tests: %s)", r.flags.fuzz, importPath, strings.Join(all, ", "))
	case len(matched) > 1:
		return "", fmt.Errorf("-fuzz matches more than one fuzz test: [%s]", strings.Join(matched, " "))
	}
	return matched[0], nil
}

// cacheDirs returns the generated-corpus directories of target.
func (r *coverRun) cacheDirs(importPath, target string) ([]string, error) {
	root := r.flags.cachedir
	if root == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no -cachedir and no user cache dir: %w", err)
		}
		root = filepath.Join(dir, "fuzzbox", "fuzz", importPath)
	}
	dirs := []string{filepath.Join(root, target)}
	if r.flags.gocache {
		out, err := goCmd("env", "GOCACHE").Output()
		if err != nil {
			return nil, fmt.Errorf("go env GOCACHE: %w", cmdErr(err))
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

// report turns the replay's coverage into the profile, the HTML report and
// the summary on stdout.
func (r *coverRun) report(p *goPackage, rep *replay) (int, error) {
	profile := r.flags.profile
	if profile == "" {
		profile = filepath.Join(r.tmp, "cover.out")
	}
	if out, err := goCmd("tool", "covdata", "textfmt", "-i="+rep.coverDir, "-o="+profile).CombinedOutput(); err != nil {
		return exitUsage, fmt.Errorf("go tool covdata textfmt: %w: %s", err, bytes.TrimSpace(out))
	}
	html := r.flags.out
	if html == "" {
		html = filepath.Join(os.TempDir(), "fuzzbox-cover-"+filepath.Base(p.ImportPath)+"-"+rep.target+".html")
	}
	// go tool cover finds the sources with go list, so it runs in the module.
	cmd := goCmd("tool", "cover", "-html="+profile, "-o="+html)
	cmd.Dir = p.Dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return exitUsage, fmt.Errorf("go tool cover -html: %w: %s", err, bytes.TrimSpace(out))
	}
	cmd = goCmd("tool", "cover", "-func="+profile)
	cmd.Dir = p.Dir
	funcs, err := cmd.Output()
	if err != nil {
		return exitUsage, fmt.Errorf("go tool cover -func: %w", cmdErr(err))
	}
	if r.flags.funcs {
		r.stdout.Write(funcs)
	}
	rep.summary(r.stdout)
	fmt.Fprintf(r.stdout, "coverage: %s of statements in %s\nreport: %s\n", coverTotal(funcs), r.coverpkg(p), html)
	if len(rep.failed)+len(rep.crashed)+len(rep.unreadable) > 0 {
		return exitFinding, nil
	}
	return exitOK, nil
}

// coverTotal returns the percentage on the total line of go tool cover -func.
func coverTotal(funcs []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(funcs))
	total := "?"
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 0 && f[0] == "total:" {
			total = f[len(f)-1]
		}
	}
	return total
}

// replay replays a fuzz test's corpus through a coverage test binary until
// one run completes. A run that dies (panic, os.Exit, timeout) writes no
// usable coverage; the entry it died in is skipped and the corpus is run
// again, so every other entry is counted exactly once. A generated-corpus
// file the testing package refuses (malformed, wrong types) fails the fuzz
// test before any entry runs; it is removed and the corpus run again.
type replay struct {
	bin, dir, target string
	cache            map[string]bool // entry names copied from the generated corpus
	timeout          time.Duration
	tmp              string

	// Results, set by run.
	coverDir           string   // the complete run's GOCOVERDIR
	passed, failed     []string // subtest names of the complete run
	crashed            []string // entries that killed the binary, in order found
	unreadable         []string // generated-corpus files the testing package refused
	seeds, fromCache   int      // entries run by the complete run, by origin
	crashedFromCache   int
	unreadableMessages []string
}

var (
	runLineRE   = regexp.MustCompile(`^=== RUN   (\S+)$`)
	resultRE    = regexp.MustCompile(`^\s+--- (PASS|FAIL|SKIP): (\S+) \(`)
	malformedRE = regexp.MustCompile(`"testdata/fuzz/[^/"]+/([^/"]+)": (.*)`)
)

func (rp *replay) run() error {
	skip := map[string]bool{}
	for i := 0; ; i++ {
		covDir := filepath.Join(rp.tmp, fmt.Sprintf("cov%d", i))
		if err := os.Mkdir(covDir, 0o777); err != nil {
			return err
		}
		out, complete, err := rp.runOnce(covDir, skip)
		if err != nil {
			return err
		}
		if !complete {
			name := rp.lastRun(out)
			if name == "" || skip[name] {
				return fmt.Errorf("%s died before its corpus could be replayed:\n%s", rp.target, tail(out, 20))
			}
			skip[name] = true
			rp.crashed = append(rp.crashed, name)
			continue
		}
		rp.results(out)
		if len(rp.passed)+len(rp.failed) > 0 || !bytes.Contains(out, []byte("--- FAIL: "+rp.target+" (")) {
			rp.coverDir = covDir
			return nil
		}
		if !rp.dropUnreadable(out) {
			return fmt.Errorf("%s failed before replaying its corpus:\n%s", rp.target, tail(out, 20))
		}
	}
}

// runOnce runs the binary once, skipping the named entries, and reports
// whether the run completed (it printed its PASS/FAIL verdict and wrote
// coverage counters).
func (rp *replay) runOnce(covDir string, skip map[string]bool) ([]byte, bool, error) {
	args := []string{"-test.run=^" + rp.target + "$", "-test.v", "-test.timeout=" + rp.timeout.String(),
		"-test.gocoverdir=" + covDir}
	if len(skip) > 0 {
		names := make([]string, 0, len(skip))
		for n := range skip {
			names = append(names, regexp.QuoteMeta(n))
		}
		sort.Strings(names)
		args = append(args, "-test.skip=^"+rp.target+"$/^("+strings.Join(names, "|")+")$")
	}
	var out bytes.Buffer
	cmd := exec.Command(rp.bin, args...)
	cmd.Dir = rp.dir
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return nil, false, fmt.Errorf("running the coverage test binary: %w", err)
	}
	verdict := false
	for _, line := range strings.Split(out.String(), "\n") {
		verdict = verdict || line == "PASS" || line == "FAIL"
	}
	counters, _ := filepath.Glob(filepath.Join(covDir, "covcounters.*"))
	return out.Bytes(), verdict && len(counters) > 0, nil
}

// lastRun returns the name of the last entry the run started.
func (rp *replay) lastRun(out []byte) string {
	name := ""
	for _, line := range strings.Split(string(out), "\n") {
		if m := runLineRE.FindStringSubmatch(line); m != nil && strings.HasPrefix(m[1], rp.target+"/") {
			name = strings.TrimPrefix(m[1], rp.target+"/")
		}
	}
	return name
}

// results records the entry results of a complete run.
func (rp *replay) results(out []byte) {
	rp.passed, rp.failed, rp.seeds, rp.fromCache = nil, nil, 0, 0
	for _, line := range strings.Split(string(out), "\n") {
		m := resultRE.FindStringSubmatch(line)
		if m == nil || !strings.HasPrefix(m[2], rp.target+"/") {
			continue
		}
		name := strings.TrimPrefix(m[2], rp.target+"/")
		if m[1] == "FAIL" {
			rp.failed = append(rp.failed, name)
		} else {
			rp.passed = append(rp.passed, name)
		}
		if rp.cache[name] {
			rp.fromCache++
		} else {
			rp.seeds++
		}
	}
}

// dropUnreadable removes the generated-corpus files the testing package
// refused in out and reports whether there were any. Refused seed files
// are the user's to fix: stock go test fails on them too.
func (rp *replay) dropUnreadable(out []byte) bool {
	dropped := false
	for _, m := range malformedRE.FindAllStringSubmatch(string(out), -1) {
		name := m[1]
		if !rp.cache[name] {
			return false
		}
		if err := os.Remove(filepath.Join(rp.dir, "testdata", "fuzz", rp.target, name)); err != nil {
			continue // already removed: listed twice
		}
		delete(rp.cache, name)
		rp.unreadable = append(rp.unreadable, name)
		rp.unreadableMessages = append(rp.unreadableMessages, name+": "+m[2])
		dropped = true
	}
	return dropped
}

// summary prints what was replayed.
func (rp *replay) summary(w io.Writer) {
	for _, n := range rp.crashed {
		if rp.cache[n] {
			rp.crashedFromCache++
		}
	}
	fmt.Fprintf(w, "%s: replayed %d corpus entries (%d seeds, %d from the generated corpus): %d passed, %d failed\n",
		rp.target, len(rp.passed)+len(rp.failed), rp.seeds, rp.fromCache, len(rp.passed), len(rp.failed))
	if len(rp.failed) > 0 {
		fmt.Fprintf(w, "failing entries (coverage counted): %s\n", strings.Join(rp.failed, " "))
	}
	if len(rp.crashed) > 0 {
		fmt.Fprintf(w, "crashed entries (%d from the generated corpus; coverage not counted): %s\n",
			rp.crashedFromCache, strings.Join(rp.crashed, " "))
	}
	for _, m := range rp.unreadableMessages {
		fmt.Fprintf(w, "unreadable generated-corpus entry (skipped): %s\n", m)
	}
}

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// mirrorPackage builds, under root, a mirror of the module path down to
// p.Dir and returns the mirrored package directory. The package's own
// regular files are copied, and so are the directories testdata and
// testdata/fuzz (as directories whose other entries are symlinks) and the
// seed corpora in testdata/fuzz/*, so corpus files can be added without
// touching the module. Every other entry, at the package level and at each
// level from the module root down, is a symlink to the original, so a test
// reading testdata/x or ../shared/y finds it.
func mirrorPackage(p *goPackage, root string) (string, error) {
	modRoot := p.Dir
	if p.Module != nil && p.Module.Dir != "" {
		modRoot = p.Module.Dir
	}
	rel, err := filepath.Rel(modRoot, p.Dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		modRoot, rel = p.Dir, "."
	}
	src, dst := modRoot, root
	for _, elem := range strings.Split(filepath.ToSlash(rel), "/") {
		if elem == "." {
			continue
		}
		if err := linkEntries(src, dst, func(name string) bool { return name == elem }); err != nil {
			return "", err
		}
		src, dst = filepath.Join(src, elem), filepath.Join(dst, elem)
	}
	if err := copyPackageDir(src, dst); err != nil {
		return "", err
	}
	return dst, nil
}

// copyPackageDir mirrors a package directory: regular files are copied,
// testdata/ and testdata/fuzz/ are rebuilt, and the seed corpus directories
// under testdata/fuzz/ are copied; everything else is symlinked.
func copyPackageDir(src, dst string) error {
	err := linkEntries(src, dst, func(name string) bool {
		fi, err := os.Lstat(filepath.Join(src, name))
		return name == "testdata" || err == nil && fi.Mode().IsRegular()
	})
	if err != nil {
		return err
	}
	if err := copyFlat(src, dst); err != nil {
		return err
	}
	td, tdDst := filepath.Join(src, "testdata"), filepath.Join(dst, "testdata")
	if fi, err := os.Lstat(td); err != nil || !fi.IsDir() {
		return os.MkdirAll(filepath.Join(tdDst, "fuzz"), 0o777) // a symlinked testdata is not mirrored
	}
	if err := linkEntries(td, tdDst, func(name string) bool { return name == "fuzz" }); err != nil {
		return err
	}
	fuzz, fuzzDst := filepath.Join(td, "fuzz"), filepath.Join(tdDst, "fuzz")
	if err := linkEntries(fuzz, fuzzDst, func(string) bool { return true }); err != nil {
		return err
	}
	targets, _ := os.ReadDir(fuzz)
	for _, t := range targets {
		if t.IsDir() {
			if err := copyFlat(filepath.Join(fuzz, t.Name()), filepath.Join(fuzzDst, t.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// linkEntries creates dst and symlinks into it every entry of src for
// which skip is false. A missing src yields an empty dst.
func linkEntries(src, dst string, skip func(name string) bool) error {
	if err := os.MkdirAll(dst, 0o777); err != nil {
		return err
	}
	files, err := os.ReadDir(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	for _, fi := range files {
		if skip(fi.Name()) {
			continue
		}
		if err := os.Symlink(filepath.Join(src, fi.Name()), filepath.Join(dst, fi.Name())); err != nil {
			return err
		}
	}
	return nil
}

// copyFlat copies the regular files of src (no recursion, as the testing
// package reads a corpus directory) into dst.
func copyFlat(src, dst string) error {
	if err := os.MkdirAll(dst, 0o777); err != nil {
		return err
	}
	files, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, fi := range files {
		if fi.Type().IsRegular() {
			if err := copyFile(filepath.Join(src, fi.Name()), filepath.Join(dst, fi.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o666)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// goCmd returns a go command; GOFLAGS from the environment apply.
func goCmd(args ...string) *exec.Cmd {
	return exec.Command("go", args...)
}

// cmdErr adds a failed command's stderr to its error.
func cmdErr(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, bytes.TrimSpace(ee.Stderr))
	}
	return err
}
