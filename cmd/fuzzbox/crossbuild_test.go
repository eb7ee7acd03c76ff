package main

import (
	"bytes"
	"context"
	"debug/macho"
	"debug/pe"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/driver/build"
)

// TestCrossBuild: the fuzzing binary of a package builds, instrumented and
// with the engine linked in, for the platforms fuzzbox's engine has never
// run on: darwin/arm64, darwin/amd64 (where it would run without a memory
// limit) and windows/amd64 (where the engine refuses to fuzz and go test
// replays; engine/sys_*.go). Linux arm64 runs for real under qemu-user
// (.ci/arm64.sh).
func TestCrossBuild(t *testing.T) {
	bin := e2eBin(t)
	dir := e2eModule(t, "targets")
	for _, pl := range []struct {
		goos, goarch string
		symbols      func(path string) ([]string, string, error) // the binary's symbols and its architecture
		arch         string
	}{
		{"darwin", "arm64", machoSymbols, macho.CpuArm64.String()},
		{"darwin", "amd64", machoSymbols, macho.CpuAmd64.String()},
		{"windows", "amd64", peSymbols, "amd64"},
	} {
		t.Run(pl.goos+"_"+pl.goarch, func(t *testing.T) {
			t.Setenv("GOOS", pl.goos)
			t.Setenv("GOARCH", pl.goarch)
			t.Setenv("CGO_ENABLED", "0")
			var stderr bytes.Buffer
			out := filepath.Join(t.TempDir(), "fuzz.test")
			if _, err := build.Build(context.Background(), build.Options{Dir: dir, Out: out, Toolexec: []string{bin, "toolexec"}, Stderr: &stderr}); err != nil {
				t.Fatalf("build: %v\n%s", err, stderr.String())
			}
			syms, arch, err := pl.symbols(out)
			if err != nil {
				t.Fatal(err)
			}
			if arch != pl.arch {
				t.Errorf("binary for %s", arch)
			}
			for _, want := range []string{"github.com/fuzzbox/fuzzbox/engine.Coordinate", "runtime.libfuzzerTraceConstCmp1", "example.com/targets.FuzzPanic.func1"} {
				if !slices.Contains(syms, want) {
					t.Errorf("binary lacks %s (engine, instrumentation or the fuzz test)", want)
				}
			}
		})
	}
}

func machoSymbols(path string) ([]string, string, error) {
	f, err := macho.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if f.Symtab == nil {
		return nil, "", fmt.Errorf("%s has no symbol table", path)
	}
	var names []string
	for _, s := range f.Symtab.Syms {
		names = append(names, strings.TrimPrefix(s.Name, "_"))
	}
	return names, f.Cpu.String(), nil
}

func peSymbols(path string) ([]string, string, error) {
	f, err := pe.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	var names []string
	for _, s := range f.Symbols {
		names = append(names, s.Name)
	}
	arch := map[uint16]string{pe.IMAGE_FILE_MACHINE_AMD64: "amd64", pe.IMAGE_FILE_MACHINE_ARM64: "arm64"}[f.Machine]
	return names, arch, nil
}
