package build

// Edge counters for the code under test only.
//
// The engines read the counters of the fuzz function's run only (fuzzbox's
// ResetCoverage and SnapshotCoverage, the libFuzzer binaries' shadow:
// shadowCounters): a package that only testing and fuzzbox's runtime call
// (flag, regexp, runtime/pprof, compress/gzip, encoding/json, go/parser,
// ...) never counts anything there, and yet every execution clears its
// counters and scans them (libFuzzer twice over: its own and the shadow).
// checksum's libFuzzer binary had 12,187 counters, about 8,000 of them in
// such packages; go-118-fuzz-build's, without testing, 5,777
// (bench/README.md). So the builds list the test binary's packages and
// compile those the code under test does not import, directly or through
// other packages, without instrumentation. The code under test is the
// package and its test files' imports other than testing (a test helper
// that imports testing brings testing's imports in with it). The choice
// goes through per-package -gcflags (noInstrumentMark), so that each
// package's build is cached under what it was compiled with.
//
// testingReached: in fuzzbox's own builds, the packages testing imports
// (fmt, strings, bytes, os, reflect, sync, ... 72 in Go 1.26) count as
// reached whatever the code under test imports. A package compiled the other
// way is a new build of it and of every package above it in the binary:
// with the rule alone, a fuzz test that reaches strconv and not strings, after
// one that reaches strings, recompiled 57 packages (sync, io, reflect, fmt,
// os, testing, encoding/json, ...: 22 s of CPU) before its first run, where
// go test -fuzz builds the standard library once for every package. Code
// under test nearly always reaches those packages; what is left out stays
// what only testing's own dependencies and fuzzbox's runtime import
// (regexp, encoding/json, go/parser, compress/gzip, runtime/pprof, ...).
// The libFuzzer binaries, built once where they run, keep the rule alone.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
)

// noInstrumentMark is the compiler flag a build gives, through -gcflags,
// the packages to compile without instrumentation. Toolexec removes it
// from the compiler's command line and leaves the package uninstrumented.
const noInstrumentMark = "-d=fuzzboxnoinstr"

// listedDep is a package of go list -deps -test's output.
type listedDep struct {
	ImportPath string
	Imports    []string
}

// unreachedFlags returns the -gcflags flags that leave uninstrumented the
// packages of importPath's test binary that its code under test does not
// reach: args are the go command's flags of the build (tags, overlay,
// module file). It returns none when the user's GOFLAGS set -gcflags,
// which a package's -gcflags on the command line would replace for that
// package, or when the packages cannot be listed: the build then
// instruments them all, as before, and says why if it fails.
func (g goCmd) unreachedFlags(ctx context.Context, importPath string, args []string, withTesting bool) []string {
	if g.goflag("gcflags") != "" {
		return nil
	}
	list := append(append([]string{"list", "-e", "-deps", "-test", "-json=ImportPath,Imports"}, args...), importPath)
	out, err := g.output(ctx, list...)
	if err != nil {
		return nil
	}
	var deps []listedDep
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var d listedDep
		if err := dec.Decode(&d); err != nil {
			return nil
		}
		deps = append(deps, d)
	}
	var flags []string
	for _, p := range unreached(deps, importPath, withTesting) {
		flags = append(flags, "-gcflags="+p+"="+noInstrumentMark)
	}
	return flags
}

// buildReached runs the build: args, then the flags of unreachedFlags
// (listArgs are its go list flags; nil, as for a standard library package,
// lists nothing), then opts.Package. Listing the test binary's packages
// takes a tenth of a second or more (iniload: 90-230 ms, where the cached
// build takes 200-400 ms), so with opts.FlagsFile from a build before, the
// build starts with that build's flags while they are listed again beside
// it; only when the listing disagrees (an import added or removed) does it
// build again, with the listed flags. Either way the binary is built with
// the flags of this listing, as without the file.
func (g goCmd) buildReached(ctx context.Context, args []string, opts Options, importPath string, listArgs []string) ([]byte, error) {
	if listArgs == nil {
		return g.linkNosplit(ctx, append(args, opts.Package), opts.Stderr)
	}
	withFlags := func(flags []string) []string {
		return slices.Concat(args, flags, []string{opts.Package})
	}
	last, ok := readFlagsFile(opts.FlagsFile)
	if !ok {
		flags := g.unreachedFlags(ctx, importPath, listArgs, true)
		output, err := g.linkNosplit(ctx, withFlags(flags), opts.Stderr)
		if err == nil {
			writeFlagsFile(opts.FlagsFile, flags)
		}
		return output, err
	}
	listed := make(chan []string, 1)
	go func() { listed <- g.unreachedFlags(ctx, importPath, listArgs, true) }()
	var notes bytes.Buffer // linkNosplit's, shown only for the build kept
	output, err := g.linkNosplit(ctx, withFlags(last), &notes)
	flags := <-listed
	if slices.Equal(flags, last) || ctx.Err() != nil {
		opts.Stderr.Write(notes.Bytes())
		return output, err
	}
	output, err = g.linkNosplit(ctx, withFlags(flags), opts.Stderr)
	if err == nil {
		writeFlagsFile(opts.FlagsFile, flags)
	}
	return output, err
}

// readFlagsFile returns the flags writeFlagsFile kept in path; ok is false
// when there are none (no file, or path is "").
func readFlagsFile(path string) (flags []string, ok bool) {
	if path == "" {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	return strings.Fields(string(data)), true
}

// writeFlagsFile keeps flags in path, one a line, unless path is "". The
// file is only a guess for the next build: a failure to write it is not
// the build's.
func writeFlagsFile(path string, flags []string) {
	if path == "" {
		return
	}
	tmp := path + ".tmp"
	if os.WriteFile(tmp, []byte(strings.Join(flags, "\n")+"\n"), 0o666) == nil {
		os.Rename(tmp, path)
	}
}

// unreached returns the import paths, sorted, of the packages among deps
// (a test binary's, go list -deps -test) that the test of importPath does
// not reach without going through testing or fuzzbox's runtime, leaving out
// those compiled without instrumentation anyway. withTesting counts what
// testing itself imports as reached (fuzzbox's own builds: see
// testingReached).
func unreached(deps []listedDep, importPath string, withTesting bool) []string {
	byPath := make(map[string]listedDep, len(deps))
	for _, d := range deps {
		byPath[d.ImportPath] = d
	}
	variant := " [" + importPath + ".test]"
	reached := map[string]bool{}
	var visit func(string)
	visit = func(path string) {
		base := plainPath(path)
		if reached[path] || base == "testing" || IsRuntimePackage(base) {
			return
		}
		reached[path] = true
		reached[base] = true
		for _, imp := range byPath[path].Imports {
			visit(imp)
		}
	}
	for _, root := range []string{importPath + variant, importPath + "_test" + variant, importPath} {
		if _, ok := byPath[root]; ok {
			visit(root)
		}
	}
	if withTesting {
		for _, imp := range byPath["testing"].Imports {
			visit(imp)
		}
	}
	var out []string
	for _, d := range deps {
		p := plainPath(d.ImportPath)
		switch {
		case reached[p], skipInstrumentation[p], IsRuntimePackage(p), p == "unsafe",
			p == importPath+"_test", p == importPath+".test":
			continue
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// plainPath returns path without go list's test variant suffix
// ("p [q.test]" is p).
func plainPath(path string) string {
	if i := strings.Index(path, " ["); i >= 0 {
		return path[:i]
	}
	return path
}
