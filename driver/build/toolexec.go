package build

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// ToolexecCommand returns the -toolexec command that runs Toolexec,
// "FUZZBOX toolexec", where FUZZBOX is fuzzbox or, if that is "", this
// executable, which must then be fuzzbox itself.
func ToolexecCommand(fuzzbox string) ([]string, error) {
	if fuzzbox != "" {
		return []string{fuzzbox, "toolexec"}, nil
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding fuzzbox for -toolexec: %w", err)
	}
	return []string{self, "toolexec"}, nil
}

// toolexecVersion names the behaviour of Toolexec. It is part of the
// compiler's version as the go command sees it, so bump it whenever the
// test main rewrite, the instrumentation flags, the skip list or the link
// step or the recorded paths change (changes to fuzzbox's runtime packages need no bump: the go
// command hashes their source; nor do changes to the runtime's rewrite for
// libFuzzer, whose hash the version carries: runtimeRewriteID): build
// results cached by an older fuzzbox are then not reused.
const toolexecVersion = "4"

// runtimeLang is the language version the runtime source is written for: the
// go line of fuzzbox's own go.mod. The extracted runtime module declares a
// lower one (see runtimeGoMod), so Toolexec restores this one when compiling
// runtime packages.
const runtimeLang = "go1.26"

// instrumentFlag makes the compiler insert 8-bit edge counters and calls of
// the runtime.libfuzzer* comparison hooks (cmd/go uses it for -fuzz).
const instrumentFlag = "-d=libfuzzer"

// skipInstrumentation lists the packages compiled without instrumentation.
// It is cmd/go's list (cmd/go/internal/test/test.go): packages that run
// concurrently with the fuzz target (scheduler, testing, time, sync) would
// only add noise to the coverage signal. The runtime's own packages
// (internal/runtime/*, internal/abi, internal/bytealg, internal/cpu, ...,
// cmd/internal/objabi's runtimePkgs) need no entry: the compiler compiles
// them with -+ and drops -d=libfuzzer itself (cmd/compile/internal/base/flag.go).
// fuzzbox's own runtime packages are skipped too (isRuntimePackage): the
// engine must not instrument itself.
var skipInstrumentation = map[string]bool{
	"context":               true,
	"internal/fuzz":         true,
	"internal/godebug":      true,
	"internal/runtime/maps": true,
	"internal/sync":         true,
	"reflect":               true,
	"runtime":               true,
	"sync":                  true,
	"sync/atomic":           true,
	"syscall":               true,
	"testing":               true,
	"time":                  true,
}

// noDWARFEnv names the environment variable through which Build asks
// Toolexec to link without DWARF (the linker's -w), as go test links a
// binary it runs and removes: a fuzzing binary lives for one run, nothing
// reads its DWARF (its stacks come from the runtime's own tables), and the
// DWARF is most of the link's time and memory (cuelang.org/go/cue's fuzz
// test: 2.3 s of processor time and 514 MiB at the peak with it, 1.7 s and
// 434 MiB without, for the whole run of one input).
const noDWARFEnv = "FUZZBOX_NODWARF"

// noInstrumentEnv names the environment variable through which a build
// asks Toolexec to compile more packages (comma-separated import paths)
// without instrumentation (linkNosplit).
const noInstrumentEnv = "FUZZBOX_NOINSTRUMENT"

func noInstrument() []string {
	if v := os.Getenv(noInstrumentEnv); v != "" {
		return strings.Split(v, ",")
	}
	return nil
}

// IsRuntimePackage reports whether importPath is a package of the fuzzbox
// module (the runtime, when building a user's package).
func IsRuntimePackage(importPath string) bool {
	return importPath == runtimeModule || strings.HasPrefix(importPath, runtimeModule+"/")
}

// Toolexec runs one tool invocation on behalf of the go command's -toolexec
// flag; it is what "fuzzbox toolexec" does. args are the tool's path and its
// arguments. Compiler runs are changed: the generated test main is rewritten
// (RewriteTestmain), testing's testing.go and fuzz.go lose three per-input
// costs (rewriteTestingSource, rewriteFuzzSource), other packages get -d=libfuzzer unless skipped or
// marked by the build (noInstrumentMark: reach.go), the runtime's assembly
// gets the comparison hooks and engine/instrument loses its Go ones
// (rthooks.go), and the
// -V=full version answer gets fuzzbox's version appended so that the build
// cache keys differ from stock builds. The linker is told of code that reads
// the number of processors (linkArgs), vet of the runtime's language version
// (vetArgs). Every other tool runs unchanged.
// Toolexec returns the exit code to exit with.
func Toolexec(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "fuzzbox toolexec: no tool to run (this command is run by the go command's -toolexec)")
		return 2
	}
	var rewrite func([]string) ([]string, error)
	switch toolName(args[0]) {
	case "link":
		rewrite = linkArgs
	case "vet":
		rewrite = vetArgs
	case "asm":
		rewrite = func(args []string) ([]string, error) {
			args, err := rtHooksAsmArgs(args)
			return withPathMap(args), err
		}
	case "cgo":
		return runTool(withPathMap(args), stdin, stdout, stderr)
	case "compile":
		if len(args) == 2 && args[1] == "-V=full" {
			return compilerVersion(args, stderr, stdout)
		}
		rewrite = compileArgs
	default:
		return runTool(args, stdin, stdout, stderr)
	}
	newArgs, err := rewrite(args)
	if err != nil {
		fmt.Fprintf(stderr, "fuzzbox toolexec: %v\n", err)
		return 2
	}
	return runTool(newArgs, stdin, stdout, stderr)
}

func toolName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".exe")
}

// runTool runs args with the given standard streams and returns its exit code.
func runTool(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	default:
		fmt.Fprintf(stderr, "fuzzbox toolexec: %v\n", err)
		return 2
	}
}

// compilerVersion answers "compile -V=full" with the compiler's answer plus
// fuzzbox's version, keeping the format cmd/go parses (cmd/go/internal/work
// toolID): a release compiler's whole line is the tool ID, so the suffix is
// appended; a development compiler's ID is the part after the last '/' of its
// final buildID= field, so a new part is appended there.
func compilerVersion(args []string, stderr, stdout io.Writer) int {
	var out bytes.Buffer
	if code := runTool(args, nil, &out, stderr); code != 0 {
		return code
	}
	fmt.Fprintln(stdout, versionLine(out.String()))
	return 0
}

func versionLine(compilerOut string) string {
	line := strings.TrimSpace(compilerOut)
	suffix := "fuzzbox=" + toolexecVersion + "-cmp-" + runtimeRewriteID()
	if skip := os.Getenv(noInstrumentEnv); skip != "" {
		// Other flags for those packages: other build cache keys.
		sum := sha256.Sum256([]byte(skip))
		suffix += "-noinstr-" + hex.EncodeToString(sum[:8])
	}
	f := strings.Fields(line)
	if len(f) > 0 && strings.HasPrefix(f[len(f)-1], "buildID=") {
		sum := sha256.Sum256([]byte(f[len(f)-1] + " " + suffix))
		return line + "/" + hex.EncodeToString(sum[:16])
	}
	return line + " " + suffix
}

// compileArgs returns the compiler command line to run for args.
func compileArgs(args []string) ([]string, error) {
	expanded, rsp, err := expandResponseFiles(args)
	if err != nil {
		return nil, err
	}
	if flagValue(expanded, "-coveragecfg") != "" {
		// The go command passes the cover tool's copy of the test main, not
		// _testmain.go: stop here rather than link testdeps.
		return nil, errCoverage
	}
	pkg := flagValue(expanded, "-p")
	marked := slices.Contains(expanded, noInstrumentMark)
	if marked {
		expanded = slices.DeleteFunc(expanded, func(a string) bool { return a == noInstrumentMark })
	}
	switch {
	case pkg == "main" && testmainIndex(expanded) >= 0:
		err = rewriteTestmainArg(expanded, testmainIndex(expanded))
	case IsRuntimePackage(pkg):
		setLang(expanded, runtimeLang)
		expanded = addTrimpath(rtHooksPackageArgs(expanded), runtimePathMap())
	case pkg == "runtime":
		expanded, err = rewriteRuntimeArgs(expanded)
	case pkg == "testing":
		dir := filepath.Dir(flagValue(expanded, "-o"))
		expanded, err = replaceSource(expanded, dir, "testing", "testing.go", rewriteTestingSource, "fuzzbox_testing.go", testingRewriteSource)
		if err == nil {
			expanded, err = replaceSource(expanded, dir, "testing", "fuzz.go", rewriteFuzzSource, "fuzzbox_fuzz.go", fuzzRewriteSource)
		}
	case !marked && !skipInstrumentation[pkg] && !slices.Contains(noInstrument(), pkg):
		// Flags must precede the files: put it first.
		expanded = append([]string{expanded[0], instrumentFlag}, expanded[1:]...)
	}
	if err != nil {
		return nil, err
	}
	expanded = withPathMap(expanded)
	if rsp == "" {
		return expanded, nil
	}
	return writeResponseFile(expanded, filepath.Dir(rsp))
}

// pathMapEnv names the environment variable through which a build passes
// Toolexec a rewrite of recorded source paths, "FROM=>TO": a vendored
// module's build reads its vendored packages through links in fuzzbox's
// workspace directory (workspace.go), and its binary names the files
// where go test's does.
const pathMapEnv = "FUZZBOX_PATHMAP"

// withPathMap adds pathMapEnv's rewrite to the -trimpath flag of a compile,
// asm or cgo command line, after the go command's own rewrites (the first
// that matches a path applies).
func withPathMap(args []string) []string {
	return addTrimpath(args, os.Getenv(pathMapEnv))
}

// addTrimpath adds the rewrite m ("FROM=>TO") to the -trimpath flag of a
// compile, asm or cgo command line, after the rewrites it has.
func addTrimpath(args []string, m string) []string {
	if m == "" || len(args) < 2 || args[1] == "-V=full" {
		return args
	}
	for i, a := range args {
		switch {
		case a == "-trimpath" && i+1 < len(args):
			out := slices.Clone(args)
			out[i+1] += ";" + m
			return out
		case strings.HasPrefix(a, "-trimpath="):
			out := slices.Clone(args)
			out[i] += ";" + m
			return out
		}
	}
	return append([]string{args[0], "-trimpath=" + m}, args[1:]...)
}

// flagValue returns the value of the "-name value" or "-name=value" flag.
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// vetArgs returns the vet command line to run for args. go test's vet
// checks the package under test and, for facts, every package it imports,
// the runtime's included; vet type-checks each at its module's go line,
// and the runtime module's is deliberately old (runtimeGoMod). The runtime's
// vet configuration (the last argument, a JSON file) gets runtimeLang, as
// its compilation gets -lang.
func vetArgs(args []string) ([]string, error) {
	cfgPath := args[len(args)-1]
	if !strings.HasSuffix(cfgPath, ".cfg") {
		return args, nil // vet -V=full, vet -flags
	}
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		return nil, fmt.Errorf("reading the vet configuration: %w", err)
	}
	var cfg map[string]json.RawMessage // the rest as it was
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("reading the vet configuration %s: %w", cfgPath, err)
	}
	var pkg string
	if json.Unmarshal(cfg["ImportPath"], &pkg) != nil || !IsRuntimePackage(pkg) {
		return args, nil
	}
	cfg["GoVersion"], _ = json.Marshal(runtimeLang)
	if data, err = json.Marshal(cfg); err != nil {
		return nil, err
	}
	runtimeCfg := strings.TrimSuffix(cfgPath, ".cfg") + "-fuzzbox.cfg"
	if err := os.WriteFile(runtimeCfg, data, 0o666); err != nil {
		return nil, fmt.Errorf("writing the runtime's vet configuration: %w", err)
	}
	return append(slices.Clone(args[:len(args)-1]), runtimeCfg), nil
}

func setLang(args []string, lang string) {
	for i, a := range args {
		if strings.HasPrefix(a, "-lang=") {
			args[i] = "-lang=" + lang
		}
	}
}

// testmainIndex returns the index of the go command's generated test main
// among args, or -1.
func testmainIndex(args []string) int {
	for i, a := range args[1:] {
		if filepath.Base(a) == "_testmain.go" {
			return i + 1
		}
	}
	return -1
}

// rewriteTestmainArg writes the rewritten test main next to args[i] and
// substitutes it in args.
func rewriteTestmainArg(args []string, i int) error {
	src, err := os.ReadFile(args[i])
	if err != nil {
		return err
	}
	out, err := RewriteTestmain(src, "", "", false)
	if err != nil {
		return err
	}
	name := filepath.Join(filepath.Dir(args[i]), "_fuzzbox_testmain.go")
	if err := os.WriteFile(name, out, 0o666); err != nil {
		return fmt.Errorf("writing rewritten test main: %w", err)
	}
	args[i] = name
	return nil
}
