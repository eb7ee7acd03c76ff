package main

import (
	"archive/zip"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The libFuzzer comparison (-libfuzzer): on the same targets and budget,
// fuzzbox's own engine, libFuzzer running the binary "fuzzbox build
// -libfuzzer" builds, and libFuzzer running the binary go-118-fuzz-build
// builds (the way OSS-Fuzz builds Go native fuzz tests). Every engine runs
// one process (-parallel=1 for fuzzbox): libFuzzer's -jobs/-fork modes
// restart processes and overrun -max_total_time.

const (
	engineLibFuzzer = "libfuzzer" // libFuzzer on fuzzbox's binary: its seed corpus zip and .options (the dictionary)
	engineGo118     = "go118"     // libFuzzer on go-118-fuzz-build's binary, as OSS-Fuzz runs it: no seeds, no dict
)

// go118Version is the go-118-fuzz-build the comparison installs (through the
// Go module proxy): the version OSS-Fuzz's base-builder-go uses.
const go118Version = "v0.0.0-20250520111509-a70c2aa677fa"

// lfBinaries are the per-target libFuzzer binaries and their files.
type lfBinaries struct {
	fuzzbox, go118 string // binaries; "" when that build failed (the reason is in note)
	seedZip        string // fuzzbox's seed corpus
	note           string
}

// installGo118 installs go-118-fuzz-build into dir/bin.
func installGo118(ctx context.Context, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "install", "github.com/AdamKorcz/go-118-fuzz-build@"+go118Version)
	cmd.Env = append(os.Environ(), "GOBIN="+filepath.Join(dir, "bin"))
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("installing go-118-fuzz-build: %v\n%s", err, out)
	}
	return filepath.Join(dir, "bin", "go-118-fuzz-build"), nil
}

// buildLibFuzzerTargets builds the libFuzzer binaries of t that engines need
// into dir; g118 is the go-118-fuzz-build binary.
func buildLibFuzzerTargets(ctx context.Context, cfg config, t target, engines []string, g118, dir string) lfBinaries {
	var b lfBinaries
	if contains(engines, engineLibFuzzer) {
		b = buildFuzzboxLibFuzzer(ctx, cfg, t, dir)
	}
	if contains(engines, engineGo118) {
		bin, err := buildGo118(ctx, t, g118, dir)
		if err != nil {
			b.note = strings.TrimSpace(b.note + " go-118-fuzz-build: " + err.Error())
		}
		b.go118 = bin
	}
	return b
}

// buildFuzzboxLibFuzzer builds t with fuzzbox build -libfuzzer into dir.
func buildFuzzboxLibFuzzer(ctx context.Context, cfg config, t target, dir string) lfBinaries {
	var b lfBinaries
	out := filepath.Join(dir, "fuzzbox")
	cmd := exec.CommandContext(ctx, cfg.fuzzbox, "build", "-libfuzzer", "-o", out, "-fuzz=^"+t.fuzz+"$", ".")
	cmd.Dir = t.dir
	if o, err := cmd.CombinedOutput(); err != nil {
		b.note = fmt.Sprintf("fuzzbox build -libfuzzer: %v: %s", err, lastLine(o))
	} else {
		b.fuzzbox = filepath.Join(out, t.fuzz)
		b.seedZip = b.fuzzbox + "_seed_corpus.zip"
	}
	return b
}

// buildGo118 builds t the way OSS-Fuzz's compile_native_go_fuzzer does: in
// a copy of the module that requires go-118-fuzz-build/testing, the fuzz
// test's file becomes a non-test file taking *go118fuzzbuildutils.F, then
// go-118-fuzz-build and clang -fsanitize=fuzzer. The module's direct
// requirements (the old versions of a real-world target: the code under
// test) must come through unchanged: adding go-118-fuzz-build must not
// upgrade them. Indirect ones may move (go-118-fuzz-build needs a newer
// golang.org/x/sys than the one an old golang.org/x/net of miekg/dns names).
func buildGo118(ctx context.Context, t target, g118, dir string) (string, error) {
	mod := filepath.Join(dir, "module")
	if err := os.CopyFS(mod, os.DirFS(t.module)); err != nil {
		return "", err
	}
	if err := absReplaces(ctx, mod, t.module); err != nil {
		return "", err
	}
	before, err := requirements(ctx, mod)
	if err != nil {
		return "", err
	}
	if err := runIn(ctx, mod, "go", "get", "github.com/AdamKorcz/go-118-fuzz-build/testing@"+go118Version); err != nil {
		return "", err
	}
	after, err := buildList(ctx, mod)
	if err != nil {
		return "", err
	}
	for path, v := range before {
		if after[path] != v {
			return "", fmt.Errorf("adding go-118-fuzz-build changed %s from %s to %s", path, v, after[path])
		}
	}
	pkg := filepath.Join(mod, t.name)
	if err := rewriteForGo118(pkg, t.go118Fuzz()); err != nil {
		return "", err
	}
	archive := filepath.Join(dir, "go118.a")
	if err := runIn(ctx, mod, g118, "-o", archive, "-func", t.go118Fuzz(), "./"+t.name); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "go118-"+t.go118Fuzz())
	if err := runIn(ctx, dir, linker(), "-fsanitize=fuzzer", archive, "-o", bin, "-lpthread"); err != nil {
		return "", err
	}
	return bin, nil
}

// absReplaces points the replace directives of mod's go.mod that name a
// relative directory (bench/typed's "=> ../..") at that directory as seen
// from orig, the module mod is a copy of.
func absReplaces(ctx context.Context, mod, orig string) error {
	cmd := exec.CommandContext(ctx, "go", "mod", "edit", "-json")
	cmd.Dir = mod
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go mod edit -json: %w", err)
	}
	var gomod struct {
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(out, &gomod); err != nil {
		return fmt.Errorf("go mod edit -json: %w", err)
	}
	for _, r := range gomod.Replace {
		if r.New.Version != "" || !strings.HasPrefix(r.New.Path, ".") {
			continue
		}
		abs, err := filepath.Abs(filepath.Join(orig, r.New.Path))
		if err != nil {
			return err
		}
		if err := runIn(ctx, mod, "go", "mod", "edit", "-replace="+r.Old.Path+"="+abs); err != nil {
			return err
		}
	}
	return nil
}

// requirements are the direct (not // indirect) require lines of mod's
// go.mod: module path to version.
func requirements(ctx context.Context, mod string) (map[string]string, error) {
	cmd := exec.CommandContext(ctx, "go", "mod", "edit", "-json")
	cmd.Dir = mod
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go mod edit -json: %w", err)
	}
	var gomod struct {
		Require []struct {
			Path, Version string
			Indirect      bool
		}
	}
	if err := json.Unmarshal(out, &gomod); err != nil {
		return nil, fmt.Errorf("go mod edit -json: %w", err)
	}
	req := map[string]string{}
	for _, r := range gomod.Require {
		if !r.Indirect {
			req[r.Path] = r.Version
		}
	}
	return req, nil
}

// buildList is go list -m all in mod: module path to version.
func buildList(ctx context.Context, mod string) (map[string]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "all")
	cmd.Dir = mod
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m all: %w", err)
	}
	list := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) >= 2 {
			list[f[0]] = f[1]
		}
	}
	return list, nil
}

// rewriteForGo118 is compile_native_go_fuzzer's rewrite_go_fuzz_harness,
// and the bench's count of the fuzz function's calls (go118Counter).
func rewriteForGo118(pkg, fuzz string) error {
	files, _ := filepath.Glob(filepath.Join(pkg, "*_test.go"))
	re := regexp.MustCompile(`func ` + fuzz + `\((\w+) \*testing\.F\)`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil || !re.Match(src) {
			continue
		}
		s := re.ReplaceAllString(string(src), "func "+fuzz+"($1 *go118fuzzbuildutils.F)")
		s = addGo118Import(s)
		s, counter, err := countGo118Calls(s)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "fuzzbox_bench_calls.go"), []byte(counter), 0o666); err != nil {
			return err
		}
		if err := os.WriteFile(f+"_fuzz_.go", []byte(s), 0o666); err != nil {
			return err
		}
		return os.Remove(f)
	}
	return fmt.Errorf("no file declares %s(*testing.F)", fuzz)
}

// go118CallsFile is the file, in the directory a go-118 binary runs in,
// that holds the number of times its fuzz function was called. libFuzzer's
// count of executions also has the inputs go-fuzz-headers cannot decode
// into the function's arguments (a length that overruns the input), on
// which the function is not called: about a third of nobug's, measured. The
// fuzzbox build decodes every input, so its executions are calls.
const go118CallsFile = "fuzzbox-bench-calls"

// fuzzBodyRE matches the start of the fuzz function's body.
var fuzzBodyRE = regexp.MustCompile(`\.Fuzz\(func\(\w+ \*testing\.T[^{]*\{`)

var packageRE = regexp.MustCompile(`(?m)^package (\w+)`)

// countGo118Calls returns the fuzz test's source src with a count of its
// fuzz function's calls at the top of the function, and the file that
// defines the count, in src's package.
func countGo118Calls(src string) (string, string, error) {
	loc := fuzzBodyRE.FindStringIndex(src)
	pkg := packageRE.FindStringSubmatch(src)
	if loc == nil || pkg == nil {
		return "", "", fmt.Errorf("no f.Fuzz(func(t *testing.T, ...) { in a package")
	}
	return src[:loc[1]] + "\n\t\tfuzzboxBenchCall()" + src[loc[1]:], fmt.Sprintf(go118Counter, pkg[1], go118CallsFile), nil
}

// go118Counter is the file countGo118Calls adds: the count lives in
// go118CallsFile, mapped at the first call (a binary run without the file
// counts in memory); each call is then one increment, with no comparison
// for the engine to trace.
const go118Counter = `package %s

import (
	"os"
	"syscall"
	"unsafe"
)

var fuzzboxBenchCalls *uint64

func fuzzboxBenchCall() {
	if fuzzboxBenchCalls == nil {
		fuzzboxBenchCalls = fuzzboxBenchMap()
	}
	*fuzzboxBenchCalls++
}

func fuzzboxBenchMap() *uint64 {
	f, err := os.OpenFile(%q, os.O_RDWR, 0)
	if err != nil {
		return new(uint64)
	}
	defer f.Close()
	m, err := syscall.Mmap(int(f.Fd()), 0, 8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return new(uint64)
	}
	return (*uint64)(unsafe.Pointer(&m[0]))
}
`

// go118Import is the import the rewritten fuzz test needs, as OSS-Fuzz's
// addimport adds it.
const go118Import = `go118fuzzbuildutils "github.com/AdamKorcz/go-118-fuzz-build/testing"`

var importBlockRE = regexp.MustCompile(`(?m)^import \($`)

// addGo118Import adds go118Import to src's imports: a plain import "testing"
// becomes a block, or the import block gets one more line.
func addGo118Import(src string) string {
	if strings.Contains(src, "import \"testing\"") {
		return strings.Replace(src, "import \"testing\"", "import (\n\t\"testing\"\n\n\t"+go118Import+"\n)", 1)
	}
	if loc := importBlockRE.FindStringIndex(src); loc != nil {
		return src[:loc[1]] + "\n\t" + go118Import + src[loc[1]:]
	}
	return src
}

func linker() string {
	if p, err := exec.LookPath("clang-16"); err == nil {
		return p
	}
	return "clang"
}

func runIn(ctx context.Context, dir, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v: %s", filepath.Base(name), err, lastLine(out))
	}
	return nil
}

func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

// runLibFuzzer runs one libFuzzer engine once on t.
func runLibFuzzer(ctx context.Context, cfg config, t target, engine string, run int, b lfBinaries, logDir string) runResult {
	r := runResult{Target: t.name, Engine: engine, Run: run,
		Log: filepath.Join(logDir, fmt.Sprintf("%s-%s-%d.log", t.name, engine, run))}
	bin := map[string]string{engineLibFuzzer: b.fuzzbox, engineGo118: b.go118}[engine]
	if bin == "" {
		r.Note = "not built: " + b.note
		return r
	}
	dir, err := os.MkdirTemp("", "fuzzbox-bench-lf-")
	if err != nil {
		r.Note = err.Error()
		return r
	}
	defer os.RemoveAll(dir)
	argv, err := libFuzzerArgs(cfg, engine, bin, b, dir)
	if err != nil {
		r.Note = err.Error()
		return r
	}
	calls := filepath.Join(dir, go118CallsFile)
	if engine == engineGo118 {
		if err := os.WriteFile(calls, make([]byte, 8), 0o666); err != nil {
			r.Note = err.Error()
			return r
		}
	}
	p := newLibFuzzerParser()
	r.ExitCode, r.WallS, r.PeakMemGB, err = execute(ctx, dir, argv, true, p, r.Log, 2*cfg.fuzztime+time.Minute)
	if err != nil {
		r.Note = err.Error()
	}
	p.result(&r)
	if engine == engineGo118 {
		if err := r.countCalls(calls); err != nil {
			r.Note = strings.TrimSpace(r.Note + " " + err.Error())
		}
	}
	return r
}

// countCalls makes the go-118 run's executions the fuzz function's calls,
// read from the count file: libFuzzer's count goes to EngineExecs.
func (r *runResult) countCalls(file string) error {
	b, err := os.ReadFile(file)
	if err != nil || len(b) != 8 {
		return fmt.Errorf("reading the fuzz function's calls: %v (%d bytes)", err, len(b))
	}
	calls := int64(binary.LittleEndian.Uint64(b))
	r.EngineExecs, r.Execs = r.Execs, calls
	if r.FuzzS > 0 {
		r.ExecsPerSec = float64(calls) / r.FuzzS
	}
	if r.Failed {
		r.ExecsToFailure = calls
	}
	return nil
}

// libFuzzerArgs is the libFuzzer command line of one run in dir: fuzzbox's
// binary also gets its seed corpus and the flags of its .options file (as
// OSS-Fuzz runs it), go-118's nothing, or value profiling with
// -go118valueprofile.
func libFuzzerArgs(cfg config, engine, bin string, b lfBinaries, dir string) ([]string, error) {
	corpusDir := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(corpusDir, 0o777); err != nil {
		return nil, err
	}
	flags := libFuzzerFlags(cfg.fuzztime)
	switch engine {
	case engineLibFuzzer:
		if err := unzipTo(b.seedZip, corpusDir); err != nil {
			return nil, err
		}
		opts, err := optionsFlags(bin + ".options")
		if err != nil {
			return nil, err
		}
		flags = append(flags, opts...)
	case engineGo118:
		if cfg.go118ValueProfile {
			flags = append(flags, "-use_value_profile=1")
		}
	}
	return append(append([]string{bin}, flags...), corpusDir), nil
}

// libFuzzerFlags are the flags of every libFuzzer run of the bench: the
// budget, fuzzbox's 10-s hang limit and 2048 MiB memory limit, and the final
// stats the parser reads.
func libFuzzerFlags(budget time.Duration) []string {
	return []string{"-max_total_time=" + strconv.Itoa(int(budget.Seconds())), "-timeout=10", "-rss_limit_mb=2048", "-print_final_stats=1"}
}

// optionsFlags returns the libFuzzer flags of an .options file's
// [libfuzzer] section, as OSS-Fuzz passes them: "key = value" becomes
// -key=value, a dictionary named relative to the file.
func optionsFlags(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var flags []string
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
			continue
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.Trim(line, "[]")
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok || section != "libfuzzer" {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if key == "dict" && !filepath.IsAbs(value) {
			value = filepath.Join(filepath.Dir(path), value)
		}
		flags = append(flags, "-"+key+"="+value)
	}
	return flags, nil
}

func unzipTo(zipPath, dir string) error {
	r, err := zip.OpenReader(zipPath)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, filepath.Base(f.Name)), data, 0o666)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

var (
	lfExecsRE  = regexp.MustCompile(`^#(\d+)\s`)
	lfInitedRE = regexp.MustCompile(`INITED cov: (\d+) ft: (\d+)`)
	lfDoneRE   = regexp.MustCompile(`^stat::number_of_executed_units: (\d+)`)
)

// libFuzzerParser reads libFuzzer's output. It is not safe for concurrent use.
type libFuzzerParser struct {
	start, failAt, last time.Duration // INITED line, first ERROR line, last line; -1 before
	initedCov, initedFt int           // the INITED line's coverage and features
	initedExecs         int64         // the INITED line's executions: the seed corpus's
	report              int           // in a fuzzbox build's failure report: 1 after its first line, 2 after testing's --- FAIL line
	execs               int64
	kind, msg           string
	text                []string // the failure report: from the first panic or ERROR line on
	reproducer          string
}

func newLibFuzzerParser() *libFuzzerParser {
	return &libFuzzerParser{start: -1, failAt: -1}
}

func (p *libFuzzerParser) line(at time.Duration, s string) {
	p.last = at
	if len(p.text) == 0 && (strings.Contains(s, "panic: ") || strings.Contains(s, "fatal error: ") ||
		strings.Contains(s, "ERROR: libFuzzer:") || strings.Contains(s, "ALARM: ")) || len(p.text) > 0 && len(p.text) < 400 {
		p.text = append(p.text, strings.TrimSpace(s))
	}
	switch {
	case strings.HasPrefix(s, "--- fuzzbox: ") && strings.HasSuffix(s, " failed on this input:") && p.kind == "":
		p.report = 1
	case p.report == 1 && strings.HasPrefix(s, "--- FAIL: "):
		p.report = 2
	case p.report == 2 && strings.TrimSpace(s) != "":
		// The first line of testing's report (t.Error's message, a panic).
		if p.msg == "" {
			p.msg = strings.TrimSpace(s)
		}
		p.report = 0
	case strings.Contains(s, "INITED") && p.start < 0:
		p.start = at
		if m := lfInitedRE.FindStringSubmatch(s); m != nil {
			p.initedCov, _ = strconv.Atoi(m[1])
			p.initedFt, _ = strconv.Atoi(m[2])
		}
		if m := lfExecsRE.FindStringSubmatch(s); m != nil {
			p.initedExecs, _ = strconv.ParseInt(m[1], 10, 64)
		}
	case strings.Contains(s, "ERROR: libFuzzer:") && p.failAt < 0:
		p.failAt = at
		p.kind = libFuzzerKind(s)
		if p.msg == "" { // a Go panic line before it says more
			p.msg = strings.TrimSpace(s)
		}
	case strings.Contains(s, "Test unit written to "):
		p.reproducer = s[strings.Index(s, "Test unit written to ")+len("Test unit written to "):]
	case strings.Contains(s, "panic: ") && p.kind == "" && p.msg == "":
		p.msg = strings.TrimSpace(s)
	}
	if m := lfExecsRE.FindStringSubmatch(s); m != nil {
		p.execs, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := lfDoneRE.FindStringSubmatch(s); m != nil {
		p.execs, _ = strconv.ParseInt(m[1], 10, 64)
	}
}

func libFuzzerKind(s string) string {
	switch {
	case strings.Contains(s, "timeout"):
		return "hang"
	case strings.Contains(s, "out-of-memory"), strings.Contains(s, "malloc"):
		return "oom"
	}
	return "crash"
}

// lfMinRateS is the shortest fuzzing, after the seed corpus, that a rate is
// computed for: a seed corpus that outlasts the budget (OPA's, 25 s of a
// 10-s run) leaves milliseconds, and its executions over them are no rate.
const lfMinRateS = 1.0

// result fills r from what the parser saw. The rate counts the executions
// after the seed corpus (libFuzzer's INITED line) over the time since.
func (p *libFuzzerParser) result(r *runResult) {
	r.Execs = p.execs
	end := p.last
	if p.failAt >= 0 {
		end = p.failAt
	}
	if p.start >= 0 && end > p.start {
		r.FuzzS = (end - p.start).Seconds()
		if r.FuzzS >= lfMinRateS {
			r.ExecsPerSec = float64(p.execs-p.initedExecs) / r.FuzzS
		}
	}
	r.Failed = p.reproducer != ""
	r.Reproducer = p.reproducer
	if r.Failed {
		r.Kind, r.Message = p.kind, p.msg
		r.FailText = strings.Join(p.text, "\n")
		r.ExecsToFailure = p.execs
		if p.start >= 0 {
			r.TTF = (p.failAt - p.start).Seconds()
		}
	}
}
