package build

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Options configures Build.
type Options struct {
	// Dir is the directory the go command runs in, inside the user's module;
	// "" means the current directory.
	Dir string
	// Package is the package to build, as the go command takes it (a
	// directory such as "./parser" or an import path); it must name exactly
	// one package. "" means ".".
	Package string
	// Out is the path of the binary to write, relative to the current
	// directory (not Dir). Required.
	Out string
	// Race builds with the race detector.
	Race bool
	// Tags is the go command's -tags value; "" means none.
	Tags string
	// Vet is go test's -vet value: "" runs go vet's checks go test runs
	// (a package go test refuses for them is refused), "off" none, else
	// the comma-separated checks to run.
	Vet string
	// Toolexec is the command line that runs "fuzzbox toolexec" (Toolexec),
	// such as {os.Executable(), "toolexec"}. Required.
	Toolexec []string
	// Stderr receives the go command's output when the build fails (compile
	// errors); nil discards it.
	Stderr io.Writer
	// FlagsFile, if set, is a file where Build keeps the per-package
	// compiler flags of its last build into Out (those of unreachedFlags),
	// to start the next build with them while it lists the packages again;
	// a listing that disagrees builds again with its own (buildReached). The
	// driver's binary cache sets it: "" lists first, then builds.
	FlagsFile string
}

// Result describes a built fuzzing binary.
type Result struct {
	Binary     string // absolute path of the binary
	PkgDir     string // absolute directory of the package
	ImportPath string // import path of the package
}

// ErrNotBuilt is wrapped by Build's error when the go command could not
// compile or link the package (what go test reports as "[build failed]").
var ErrNotBuilt = errors.New("package does not build")

// ErrSetupFailed is wrapped by Build's error beside ErrNotBuilt when the go
// command printed go test's own line for the failure ("FAIL\tpkg [setup
// failed]": an import it could not load), which a caller imitating go test
// then does not print again.
var ErrSetupFailed = errors.New("setup failed")

// xtestFile is the name of the external test file the overlay adds to the
// package directory; it never exists on disk.
const xtestFile = "zz_fuzzbox_main_test.go"

// NoGoFuzz is the flag every go test -c of fuzzbox's gives, its builds'
// and the stock ones the driver replays failures with: a -fuzz in the
// user's GOFLAGS, which fuzzbox fuzz takes as its own -fuzz (as go test
// takes it), would also have the go command instrument the build for its
// own fuzzing, and fuzzbox's runtime hooks then call themselves (the
// linker refused the build: "nosplit stack over 792 byte limit").
const NoGoFuzz = "-fuzz="

// Build compiles the test package opts.Package into a fuzzing binary at
// opts.Out (see the package documentation for how). The user's files are
// not modified. A package that does not compile yields an error
// "package does not build: ..." and the go command's output on opts.Stderr.
//
// A build that ctx stops fails with an error that wraps ctx's, and never
// says the package does not build: the go command got SIGINT (and stopped
// starting tools), not a compiler error.
func Build(ctx context.Context, opts Options) (*Result, error) {
	res, err := build(ctx, opts)
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("build of %s interrupted: %w", shownPackage(opts), context.Cause(ctx))
	}
	return res, err
}

// shownPackage names the package opts builds for a message: its directory
// when the package is "." there.
func shownPackage(opts Options) string {
	if p := cmp.Or(opts.Package, "."); p != "." || opts.Dir == "" {
		return p
	}
	return opts.Dir
}

func build(ctx context.Context, opts Options) (*Result, error) {
	if opts.Out == "" || len(opts.Toolexec) == 0 {
		return nil, errors.New("build: Options.Out and Options.Toolexec are required")
	}
	if opts.Package == "" {
		opts.Package = "."
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	out, err := filepath.Abs(opts.Out)
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	toolexec, err := joinCommand(opts.Toolexec)
	if err != nil {
		return nil, fmt.Errorf("build: toolexec command: %w", err)
	}
	g := goCmd{dir: opts.Dir, env: append(os.Environ(), noDWARFEnv+"=1")}
	version, err := g.readEnv(ctx)
	if err != nil {
		return nil, err
	}
	// The fuzzbox tag builds engine/instrument's comparison hooks.
	tags := withTags("fuzzbox", g.userTags(opts.Tags))
	pkg, err := g.listPackage(ctx, opts.Package, tags)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "fuzzbox-build-")
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	defer os.RemoveAll(tmp)
	args := []string{"test", "-c", NoGoFuzz, "-o", out, "-toolexec=" + toolexec}
	if opts.Vet != "" {
		args = append(args, "-vet="+opts.Vet)
	}
	more, err := g.prepare(ctx, pkg, tmp, version)
	if err != nil {
		return nil, err
	}
	args = append(args, more...)
	if opts.Race {
		args = append(args, "-race")
	}
	args = append(args, "-tags="+tags)
	var listArgs []string // the go list flags of unreachedFlags; nil for none
	if !pkg.Standard {
		listArgs = append([]string{"-tags=" + tags}, more...)
	} else {
		// A standard library package has no module of its own to add the
		// runtime to: it is built from a scratch module that requires it
		// (prepare), by import path. A toolchain the go command fetched
		// (GOTOOLCHAIN) has its GOROOT in the module cache, where the
		// go command refuses an overlay file: that GOROOT's own go command
		// builds it, with an empty module cache of its own (the scratch
		// module needs no module but the runtime, a local directory).
		g.dir, opts.Package = filepath.Join(tmp, scratchDir), pkg.ImportPath
		if testsInternalFuzz(pkg) {
			args = append(args, "-ldflags=-checklinkname=0")
		}
		g.bin = filepath.Join(g.goroot, "bin", "go")
		g.env = append(g.env, "GOWORK=off", "GOTOOLCHAIN=local", "GOMODCACHE="+filepath.Join(tmp, "modcache"))
	}
	if g.gotmpdir == "" {
		// The go command has no SIGINT handler while it builds: stopped,
		// it leaves its work directory behind, and a tool still running
		// writes on into it. Within tmp, it goes with tmp.
		work := filepath.Join(tmp, "gotmp")
		if err := os.Mkdir(work, 0o777); err != nil {
			return nil, fmt.Errorf("build: %w", err)
		}
		g.env = append(g.env, "GOTMPDIR="+work)
	}
	if output, err := g.buildReached(ctx, args, opts, pkg.ImportPath, listArgs); err != nil {
		output, setup := withoutFailLine(output)
		output = fromCwd(output, opts.Dir)
		opts.Stderr.Write(output)
		err = fmt.Errorf("%w: %s%s", ErrNotBuilt, Summary(output, err), untested(version))
		if setup {
			err = setupError{err}
		}
		return nil, err
	}
	return &Result{Binary: out, PkgDir: pkg.Dir, ImportPath: pkg.ImportPath}, nil
}

// setupError is a build error that is ErrSetupFailed too.
type setupError struct{ error }

func (e setupError) Unwrap() []error { return []error{e.error, ErrSetupFailed} }

// setupFailedRE matches the line go test -c prints, as go test does, when it
// cannot load the package's imports.
var setupFailedRE = regexp.MustCompile(`(?m)^FAIL\t\S+ \[setup failed\]$`)

// bareFailRE matches the bare "FAIL" line go test -c adds after it.
var bareFailRE = regexp.MustCompile(`(?m)^FAIL\n`)

// withoutFailLine returns the go command's output without the bare "FAIL"
// line go test -c adds after a setup failure (go test prints none), and
// whether it printed go test's "[setup failed]" line.
func withoutFailLine(output []byte) ([]byte, bool) {
	if !setupFailedRE.Match(output) {
		return output, false
	}
	return bareFailRE.ReplaceAll(output, nil), true
}

// maxUninstrumented bounds how many packages linkNosplit leaves
// uninstrumented before it gives up.
const maxUninstrumented = 8

// nosplitRE matches the linker's report of a go:nosplit function whose
// frame, with the comparison hook it calls, exceeds the nosplit stack limit.
var nosplitRE = regexp.MustCompile(`(?m)^(\S+): nosplit stack over \d+ byte limit$`)

// linkNosplit runs the build. The comparison hooks are go:nosplit (they must
// not grow the stack, see engine/instrument) and so count towards the stack
// budget of a nosplit function that compares: one whose own frame nearly
// fills it (github.com/pjbgf/sha1cd/ubc's calculateDvMaskGeneric: 720 of 792
// bytes) no longer links. Its package is then compiled without
// instrumentation, as the compiler leaves the runtime's, and the build
// retried; w hears which.
func (g goCmd) linkNosplit(ctx context.Context, args []string, w io.Writer) ([]byte, error) {
	var skipped []string
	for {
		output, err := g.run(ctx, args...)
		if err == nil {
			return output, nil
		}
		var more []string
		for _, m := range nosplitRE.FindAllStringSubmatch(string(output), -1) {
			if p, _, ok := SplitSymbol(m[1]); ok && !slices.Contains(skipped, p) && !slices.Contains(more, p) {
				more = append(more, p)
				fmt.Fprintf(w, "fuzzbox: compiling %s without coverage instrumentation: its go:nosplit function %s leaves no stack for the comparison hooks\n", p, m[1])
			}
		}
		if len(more) == 0 || len(skipped)+len(more) > maxUninstrumented {
			return output, err
		}
		skipped = append(skipped, more...)
		g.env = append(slices.Clone(g.env), noInstrumentEnv+"="+strings.Join(skipped, ","))
	}
}

// SplitSymbol splits a function symbol as the linker and stack traces print
// it ("example.com/a/b.F", "example.com/a/b.(*T).m", "example.com/a.F.func1")
// into its package's import path and the rest: at the first dot after the
// last slash. ok is false when there is no such dot.
func SplitSymbol(sym string) (pkg, rest string, ok bool) {
	slash := strings.LastIndexByte(sym, '/')
	dot := strings.IndexByte(sym[slash+1:], '.')
	if dot < 0 {
		return "", "", false
	}
	return sym[:slash+1+dot], sym[slash+2+dot:], true
}

// goCmd runs the go command in dir with env.
type goCmd struct {
	dir     string
	env     []string
	bin     string // the go command; "" means "go" from PATH
	gomod   string // the main module's go.mod, as readEnv found it
	goroot  string // GOROOT, as readEnv found it
	gowork  string // the workspace file (GOWORK), "" or "off" outside a workspace
	goflags string // GOFLAGS, as readEnv found it
	// GOTMPDIR, as readEnv found it: the user's choice of where the go
	// command's work directory goes, or "" (Build's own then).
	gotmpdir string
}

// run runs "go args..." and returns its combined output.
func (g goCmd) run(ctx context.Context, args ...string) ([]byte, error) {
	var buf bytes.Buffer
	err := g.command(ctx, &buf, &buf, args...).Run()
	return buf.Bytes(), err
}

// output runs "go args..." and returns its standard output, for the callers
// that parse it: what the go command prints on standard error as it works
// ("go: downloading ..." while it fills the module cache, a toolchain
// switch) is not part of it. When the command fails, the error is the
// summary of both.
func (g goCmd) output(ctx context.Context, args ...string) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	if err := g.command(ctx, &stdout, &stderr, args...).Run(); err != nil {
		return nil, errors.New(Summary(append(stderr.Bytes(), stdout.Bytes()...), err))
	}
	return stdout.Bytes(), nil
}

func (g goCmd) command(ctx context.Context, stdout, stderr io.Writer, args ...string) *exec.Cmd {
	bin := g.bin
	if bin == "" {
		bin = "go"
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = g.dir, g.env
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if runtime.GOOS != "windows" {
		// Stopped, the go command and the tools it runs get SIGINT, as
		// from a terminal's Ctrl-C: they run in a process group of their
		// own, which the signal goes to. Sent to the go command alone, it
		// ends it at once (it has no handler while it builds) and leaves
		// its tools running for nobody.
		cmd.SysProcAttr = newGroup()
		cmd.Cancel = func() error { return interruptGroup(cmd.Process) }
		cmd.WaitDelay = cancelWait
	}
	return cmd
}

// cancelWait is how long a stopped go command has to exit after SIGINT
// before it is killed.
var cancelWait = 10 * time.Second

// listedPackage is the part of "go list -json" output Build uses.
type listedPackage struct {
	ImportPath string
	Name       string
	Dir        string
	Standard   bool
	Module     *struct {
		Path string
		Main bool
	}
	Error *struct{ Err string }
}

// userTags returns the user's build tags: tags, or when that is "" the
// -tags of GOFLAGS, which the build's own -tags flag would otherwise
// override (go test builds with them).
func (g goCmd) userTags(tags string) string {
	if tags != "" {
		return tags
	}
	return g.goflag("tags")
}

// goflag returns the value GOFLAGS gives the go command's flag name (the
// last one, as the go command applies them), or "".
func (g goCmd) goflag(name string) string {
	v := ""
	for _, f := range strings.Fields(g.goflags) {
		if val, ok := strings.CutPrefix(strings.TrimLeft(f, "-"), name+"="); ok {
			v = val
		}
	}
	return v
}

// withTags adds the user's build tags ("" for none) to the mode's own.
// The go command still takes the deprecated space-separated form ("a b"),
// but not mixed with commas: such a list is joined with commas.
func withTags(mode, user string) string {
	if user == "" {
		return mode
	}
	if !strings.Contains(user, ",") {
		user = strings.Join(strings.Fields(user), ",")
	}
	return mode + "," + user
}

func (g goCmd) listPackage(ctx context.Context, pattern, tags string) (*listedPackage, error) {
	out, err := g.output(ctx, "list", "-e", "-tags="+tags, "-json=ImportPath,Name,Dir,Standard,Module,Error", pattern)
	if err != nil {
		return nil, fmt.Errorf("package does not build: %w", err)
	}
	var pkgs []*listedPackage
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		p := new(listedPackage)
		if err := dec.Decode(p); err != nil {
			return nil, fmt.Errorf("build: decoding go list output: %w", err)
		}
		pkgs = append(pkgs, p)
	}
	switch {
	case len(pkgs) != 1:
		return nil, fmt.Errorf("build: %q matches %d packages; fuzzbox builds exactly one", pattern, len(pkgs))
	case pkgs[0].Error != nil:
		return nil, fmt.Errorf("package does not build: %s", oneLine(pkgs[0].Error.Err))
	case pkgs[0].Module == nil && !pkgs[0].Standard:
		return nil, fmt.Errorf("build: package %s is not in a module; fuzzbox needs a go.mod", pkgs[0].ImportPath)
	}
	return pkgs[0], nil
}

// prepare writes the overlay and module files for pkg into tmp and returns
// the go command flags that use them.
func (g *goCmd) prepare(ctx context.Context, pkg *listedPackage, tmp, goVersion string) ([]string, error) {
	overlay, err := writeOverlaySource(pkg, tmp, xtestSource(pkg.Name), g.goflag("overlay"))
	if err != nil {
		return nil, err
	}
	flags := []string{"-overlay=" + overlay}
	if pkg.Standard {
		return flags, writeScratchModule(filepath.Join(tmp, scratchDir), goVersion)
	}
	if pkg.Module.Main && pkg.Module.Path == runtimeModule {
		return flags, nil // fuzzing fuzzbox itself: its runtime is right here
	}
	modFlags, err := g.addRuntime(ctx, tmp)
	if err != nil {
		return nil, err
	}
	return append(flags, modFlags...), nil
}

// xtestSource returns the external test file added to package name. Its
// package is name_test: go/build assigns every *_test.go file of that package
// name to the external test package. FuzzboxMainStart does not match the
// go command's Fuzz pattern (a lower-case letter follows "Fuzz").
func xtestSource(name string) []byte {
	return []byte(`// Code generated by fuzzbox. DO NOT EDIT.

package ` + name + `_test

import (
	"testing"

	"` + fuzzmainPath + `"
)

// ` + mainStartWrapper + ` is called by the test main as rewritten by fuzzbox toolexec.
func ` + mainStartWrapper + `(importPath, modulePath string, tests []testing.InternalTest, benchmarks []testing.InternalBenchmark, fuzzTargets []testing.InternalFuzzTarget, examples []testing.InternalExample) *testing.M {
	return fuzzmain.MainStart(importPath, modulePath, tests, benchmarks, fuzzTargets, examples)
}
`)
}

// modFile returns the go.mod file the user's go command reads: GOFLAGS's
// -modfile (relative to the directory the go command runs in), as go test
// takes it, or the main module's go.mod. The build passes its own -modfile,
// which would override GOFLAGS's: it copies this one.
func (g goCmd) modFile() string {
	f := g.goflag("modfile")
	switch {
	case f == "":
		return g.gomod
	case filepath.IsAbs(f):
		return f
	}
	dir := g.dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return filepath.Join(dir, f)
}

// writeModFile writes a copy of the main module's go.mod (and go.sum; or
// of GOFLAGS's -modfile and its .sum, modFile) that requires the runtime
// module and replaces it with the runtime directory,
// and returns the go command flags that use it.
func (g goCmd) writeModFile(ctx context.Context, tmp string) ([]string, error) {
	gomod := g.modFile()
	rt, err := runtimeDir()
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	modfile := filepath.Join(tmp, "go.mod")
	if err := copyFile(gomod, modfile); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	sum := strings.TrimSuffix(gomod, ".mod") + ".sum"
	if err := copyFile(sum, filepath.Join(tmp, "go.sum")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("build: %w", err)
	}
	out, err := g.run(ctx, "mod", "edit", "-modfile="+modfile,
		"-require="+runtimeModule+"@v0.0.0", "-replace="+runtimeModule+"="+rt)
	if err != nil {
		return nil, fmt.Errorf("build: go mod edit: %s", Summary(out, err))
	}
	flags := []string{"-modfile=" + modfile}
	if fi, err := os.Stat(filepath.Join(filepath.Dir(gomod), "vendor")); err == nil && fi.IsDir() {
		// vendor/modules.txt does not list the runtime module.
		flags = append(flags, "-mod=mod")
	}
	return flags, nil
}

// scratchDir is the directory, in the build's temporary directory, of the
// module a standard library package is built from.
const scratchDir = "std"

// writeScratchModule writes a module in dir that requires the runtime module
// and replaces it with the runtime directory: the main module of a standard
// library package's build (go test -fuzz fuzzes those from anywhere). Its go
// line is the go command's version (goVersion, "go1.26.8"), so the package's
// tests get the GODEBUG defaults they get from go test outside a module.
func writeScratchModule(dir, goVersion string) error {
	rt, err := runtimeDir()
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	goLine := "1.21"
	if _, ok := goMinor(goVersion); ok {
		goLine = strings.TrimPrefix(strings.Fields(goVersion)[0], "go")
	}
	gomod := fmt.Sprintf("module fuzzbox.local/std\n\ngo %s\n\nrequire %s v0.0.0\n\nreplace %s => %s\n", goLine, runtimeModule, runtimeModule, rt)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o666); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	return nil
}

// goMinor returns N of "go1.N[.P]" (ok false for other forms, such as devel).
func goMinor(v string) (int, bool) {
	rest, ok := strings.CutPrefix(v, "go1.")
	if !ok {
		return 0, false
	}
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	n, err := strconv.Atoi(rest[:digits])
	return n, err == nil
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o666)
}

// joinCommand quotes args for the go command's -toolexec flag, which splits
// on spaces and accepts single- or double-quoted fields without escapes.
func joinCommand(args []string) (string, error) {
	quoted := make([]string, len(args))
	for i, a := range args {
		switch {
		case a != "" && !strings.ContainsAny(a, " \t\n\r'\""):
			quoted[i] = a
		case !strings.Contains(a, "'"):
			quoted[i] = "'" + a + "'"
		case !strings.Contains(a, `"`):
			quoted[i] = `"` + a + `"`
		default:
			return "", fmt.Errorf("cannot quote %q", a)
		}
	}
	return strings.Join(quoted, " "), nil
}

// fromCwd returns the go command's output, run in dir, with the files it
// names as "./x.go" named from the current directory (the user's), as go
// test names them ("p/x.go:3:13"), so that links from where the command
// ran resolve.
func fromCwd(output []byte, dir string) []byte {
	cwd, err := os.Getwd()
	if err != nil || dir == "" {
		return output
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return output
	}
	rel, err := filepath.Rel(cwd, abs)
	switch {
	case err != nil || rel == ".":
		return output
	case !filepath.IsLocal(rel):
		rel = abs
	}
	return relFileRE.ReplaceAll(output, []byte("${1}"+filepath.ToSlash(rel)+"/"))
}

// relFileRE matches "./" starting a file the go command names at the start
// of a line.
var relFileRE = regexp.MustCompile(`(?m)^(\s*)\./`)

// Summary returns the first meaningful line of the go command's output, or
// err when there is none: not a package header ("# pkg") nor the go
// command's note of a module it fetches, which precede the error on a
// machine whose module cache lacks some, nor a C compiler's lines that say
// where the error after them is (cgo: "x.go: In function 'f':").
func Summary(output []byte, err error) string {
	return firstLine(output, err, func(line string) bool {
		return strings.HasPrefix(line, "#") || strings.HasPrefix(line, "go: downloading ") ||
			strings.Contains(line, ": In function ") || strings.HasPrefix(line, "In file included from ")
	})
}

// firstLine returns the first non-empty line of output, spaces trimmed, that
// skip does not skip, or err when there is none. The lines indented by a tab
// after it continue it, joined with spaces: the go command reports an import
// error as "package example.com/m (test)", then "\timports …: build
// constraints exclude all Go files in …", whose first line alone says
// nothing.
func firstLine(output []byte, err error, skip func(line string) bool) string {
	lines := strings.Split(string(output), "\n")
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || skip(line) {
			continue
		}
		// Lines after it that start with a tab go with it (the go
		// command's), and so do those indented deeper than an indented
		// one: testing indents a message's later lines (testify's
		// "Error:" lines) by four more spaces.
		indent := len(raw) - len(strings.TrimLeft(raw, " \t"))
		for _, more := range lines[i+1:] {
			rest := strings.TrimLeft(more, " \t")
			deeper := indent > 0 && len(more)-len(rest) > indent
			if rest == "" || !strings.HasPrefix(more, "\t") && !deeper {
				break
			}
			line += " " + oneLine(more)
		}
		return line
	}
	return err.Error()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
