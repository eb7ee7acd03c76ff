package build

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Code that reads the number of processors (link step).
//
// fuzzbox's workers run on one processor until the code under test starts
// goroutines (engine/procs.go). Code that asks how many processors it has
// (runtime.GOMAXPROCS, runtime.NumCPU) may take another path with one than
// with several, without starting a goroutine: a parallel path go test runs
// and fuzzing would then never reach. The link step looks for such code in
// the packages it links and, if one outside the standard library and
// fuzzbox reads them, tells the engine (procsReaderVar) to keep the
// runtime's default GOMAXPROCS in the workers.

// procsReaderVar is the engine's variable that names such a package.
const procsReaderVar = runtimeModule + "/engine.procsReader"

// procsSymbols are the runtime symbols a package that reads the number of
// processors refers to: runtime.GOMAXPROCS is called; runtime.NumCPU is
// inlined into a read of runtime.numCPUStartup, and its name stays in the
// inlining tree.
var procsSymbols = [][]byte{[]byte("runtime.GOMAXPROCS"), []byte("runtime.NumCPU"), []byte("runtime.numCPUStartup")}

// linkArgs returns the linker command line to run for args: with
// -X procsReaderVar=P when package P, linked from importcfg, reads the
// number of processors, and with -w (no DWARF) when Build asks for it
// (noDWARFEnv).
func linkArgs(args []string) ([]string, error) {
	expanded, rsp, err := expandResponseFiles(args)
	if err != nil {
		return nil, err
	}
	cfg := flagValue(expanded, "-importcfg")
	if cfg == "" { // the -V=full query, or no link
		return args, nil
	}
	goroot := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(args[0])))) // GOROOT/pkg/tool/GOOS_GOARCH/link
	var flags []string
	if pkg := procsReader(cfg, goroot); pkg != "" {
		flags = append(flags, "-X", procsReaderVar+"="+pkg)
	}
	if os.Getenv(noDWARFEnv) == "1" {
		flags = append(flags, "-w")
	}
	if flags == nil {
		return args, nil
	}
	expanded = slices.Concat(expanded[:1], flags, expanded[1:])
	if rsp == "" {
		return expanded, nil
	}
	return writeResponseFile(expanded, filepath.Dir(rsp))
}

// procsReader returns the first package of the link's importcfg, outside
// the standard library (GOROOT/src), fuzzbox's module and the test main,
// whose archive refers to a procsSymbols symbol; "" if none does or the
// file cannot be read (the workers then start on one processor, as
// before).
func procsReader(importcfg, goroot string) string {
	f, err := os.Open(importcfg)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		spec, ok := strings.CutPrefix(sc.Text(), "packagefile ")
		if !ok {
			continue
		}
		pkg, file, ok := strings.Cut(spec, "=")
		if !ok || pkg == "main" || pkg == runtimeModule || strings.HasPrefix(pkg, runtimeModule+"/") || isStd(goroot, pkg) {
			continue
		}
		if refersTo(file, procsSymbols) {
			return pkg
		}
	}
	return ""
}

// isStd reports whether pkg is a package of the standard library of goroot.
func isStd(goroot, pkg string) bool {
	if strings.HasPrefix(pkg, "vendor/") {
		return true
	}
	fi, err := os.Stat(filepath.Join(goroot, "src", filepath.FromSlash(pkg)))
	return err == nil && fi.IsDir()
}

// refersTo reports whether the archive file contains one of the names.
func refersTo(file string, names [][]byte) bool {
	data, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	for _, n := range names {
		if bytes.Contains(data, n) {
			return true
		}
	}
	return false
}
