package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver"
)

// fuzzbox corpus: each subcommand parses its flags and prints; package
// corpus does the work (Files, Check, WriteJSON, EncodeJSON, ImportRaw, Export, ...).
func init() {
	register(&command{name: "corpus", short: "read, write and convert go test fuzz v1 corpus files", run: runCorpus})
	for _, c := range []*command{
		{name: "cat", minArgs: 1, flags: readFlags(corpusCat)},
		{name: "decode", minArgs: 1, flags: readFlags(corpusDecode)},
		{name: "encode", flags: encodeFlags},
		{name: "import", run: corpusImport},
		{name: "export", run: corpusExport},
		{name: "check", minArgs: 1, flags: checkFlags},
		{name: "minimize", flags: minimizeFlags, testArgs: true},
		{name: "merge", minArgs: 1, flags: mergeFlags},
	} {
		c.group, c.usage = "corpus", corpusUsage
		corpusCommands[c.name] = c
	}
}

const corpusUsage = `usage: fuzzbox corpus <subcommand> [flags] [arguments]

Subcommands:
  cat [-fuzz=FuzzX [-pkg DIR]] FILE|DIR...   show entries readably (a typed fuzz test's arguments too:
                                       of testdata/fuzz/FuzzX files, or of any file with -fuzz)
  decode [-fuzz=FuzzX [-pkg DIR]] FILE|DIR...   print one JSON object per file (schema: docs/corpus.md)
  encode [-o DIR]                      read JSON objects from stdin; print one entry, or write each to DIR
  import -type []byte|string -o DIR RAW...   turn raw files or directories into entries
  export -o DIR FILE|DIR...            write the raw bytes of single []byte/string entries
  import -from-libfuzzer -fuzz=FuzzX [-types LIST] [-pkg DIR] [-o DIR] FILE...
                                       libFuzzer inputs (crash files) to entries (docs/oss-fuzz.md)
  export -to-libfuzzer -o DIR FILE|DIR...    entries to libFuzzer inputs (fuzzbox-libfuzzer-v1)
  merge -fuzz=FuzzX [-pkg DIR] [-cachedir DIR] [-from-libfuzzer] DIR...
                                       merge corpora (machines, shards, the cloud) into the cache, keep what adds coverage
  check [-types 'string,int'] FILE|DIR...    validate files; exit 1 listing each bad file
  minimize -fuzz=FuzzX [-cachedir DIR] [package]   delete generated-corpus entries that add no coverage

Exit status: 0 success, 1 a bad or unconvertible file (minimize, merge: a
failing entry, written to testdata/fuzz as fuzzbox fuzz writes one), 2 a
usage error.
`

// corpusCommands are the subcommands of fuzzbox corpus; they share its
// usage.
var corpusCommands = map[string]*command{}

// corpusStdin is where encode reads; tests replace it.
var corpusStdin io.Reader = os.Stdin

func runCorpus(args []string, stdout, stderr io.Writer) int {
	usage := func(w io.Writer) { fmt.Fprint(w, corpusUsage) }
	return dispatch(args, corpusCommands, usage, "fuzzbox corpus: missing subcommand", "fuzzbox corpus: unknown subcommand %q", stdout, stderr)
}

// report prints each error on w after prefix and returns exitFinding if
// there is one.
func report(w io.Writer, prefix string, errs ...error) int {
	for _, err := range errs {
		fmt.Fprintf(w, "%s%v\n", prefix, err)
	}
	if len(errs) > 0 {
		return exitFinding
	}
	return exitOK
}

// readFlags adds cat's and decode's flags: -fuzz names the typed fuzz test
// whose arguments the files hold wherever they lie (the cache, a CI
// artifact), -pkg its package.
func readFlags(run func(*invocation, driver.Target) int) func(*flag.FlagSet) func(*invocation) int {
	return func(fs *flag.FlagSet) func(*invocation) int {
		fuzz := fs.String("fuzz", "", "the typed fuzz test `FuzzX` the files are entries of (default: the testdata/fuzz/FuzzX directory a file is in)")
		pkg := fs.String("pkg", ".", "package `DIR` of -fuzz's fuzz test")
		return func(inv *invocation) int {
			var t driver.Target
			if *fuzz != "" {
				t = driver.Target{Name: strings.TrimSuffix(strings.TrimPrefix(*fuzz, "^"), "$"), Dir: *pkg}
				if !corpus.IsFuzzTestName(t.Name) {
					return inv.usageError("-fuzz must name one fuzz test (FuzzX or ^FuzzX$)")
				}
			}
			return run(inv, t)
		}
	}
}

// eachFile calls fn on each file's entry, each of a directory's files
// (corpus.ExpandDirs; driver.TypedFiles: typed arguments of t's, or of each
// file's testdata/fuzz/FuzzX, too) and reports bad files, fn's errors and
// why typed arguments are missing on w after prefix, as they come.
func eachFile(w io.Writer, prefix string, t driver.Target, paths []string, fn func(corpus.Entry) error) int {
	paths, errs := corpus.ExpandDirs(paths) // a directory's files, as check reads them
	code := report(w, prefix, errs...)
	warn := func(err error) { fmt.Fprintf(w, "%s%v\n", prefix, err) }
	for e, err := range driver.TypedFiles(context.Background(), driver.Config{}, t, paths, warn) {
		if err == nil {
			err = fn(e)
		}
		if err != nil {
			code = report(w, prefix, err)
		}
	}
	return code
}

func corpusCat(inv *invocation, t driver.Target) int {
	return eachFile(inv.stderr, "fuzzbox corpus: ", t, inv.Args(), func(e corpus.Entry) error {
		io.WriteString(inv.stdout, e.Text())
		return nil
	})
}

func corpusDecode(inv *invocation, t driver.Target) int {
	return eachFile(inv.stderr, "fuzzbox corpus: ", t, inv.Args(), func(e corpus.Entry) error {
		return corpus.WriteJSON(inv.stdout, e)
	})
}

func encodeFlags(fs *flag.FlagSet) func(*invocation) int {
	dir := fs.String("o", "", "write each object as an entry of `DIR` instead of printing one")
	return func(inv *invocation) int {
		if inv.NArg() > 0 {
			return inv.usageError("encode: unexpected arguments (input is read from stdin)")
		}
		if err := corpus.EncodeJSON(corpusStdin, *dir, inv.stdout); err != nil {
			return report(inv.stderr, "fuzzbox corpus encode: ", err)
		}
		return exitOK
	}
}

// corpusImport implements fuzzbox corpus import, raw or -from-libfuzzer:
// the two take different flags.
func corpusImport(args []string, stdout, stderr io.Writer) int {
	c := &command{name: "import", group: "corpus", usage: corpusUsage, minArgs: 1, flags: importRawFlags}
	if slices.Contains(args, "-from-libfuzzer") || slices.Contains(args, "--from-libfuzzer") {
		c.flags = importLibFuzzerFlags
	}
	return c.main(args, stdout, stderr)
}

func importRawFlags(fs *flag.FlagSet) func(*invocation) int {
	typ := fs.String("type", "[]byte", "argument type of the entries: `[]byte` or string")
	dir := fs.String("o", "", "corpus `DIR` to write the entries to (required)")
	return func(inv *invocation) int {
		if *typ != "[]byte" && *typ != "string" {
			return inv.usageError(fmt.Sprintf("import: -type %q: want []byte or string", *typ))
		}
		if *dir == "" {
			return inv.usageError("import: -o DIR is required")
		}
		t, _ := corpus.TypeByName(*typ)
		return report(inv.stderr, "fuzzbox corpus import: ", corpus.ImportRaw(inv.Args(), *dir, t)...)
	}
}

// importLibFuzzerFlags adds the flags of
// fuzzbox corpus import -from-libfuzzer -fuzz=FuzzX [-types LIST] [-pkg DIR] [-o DIR] FILE...
func importLibFuzzerFlags(fs *flag.FlagSet) func(*invocation) int {
	fs.Bool("from-libfuzzer", true, "the files are libFuzzer inputs (fuzzbox-libfuzzer-v1)")
	fuzz := fs.String("fuzz", "", "the fuzz test `FuzzX` the inputs are for (required)")
	typeList := fs.String("types", "", "its argument `types`, such as 'string,int' (default: read from the package source)")
	pkg := fs.String("pkg", ".", "package `DIR` of the fuzz test")
	out := fs.String("o", "", "corpus `DIR` to write to (default PKG/testdata/fuzz/FuzzX)")
	return func(inv *invocation) int {
		if *fuzz == "" {
			return inv.usageError("import: -from-libfuzzer needs -fuzz=FuzzX")
		}
		types, err := corpus.ArgTypes(*typeList, *pkg, *fuzz)
		if err != nil {
			report(inv.stderr, "fuzzbox corpus import: ", err)
			return exitUsage
		}
		seeds := filepath.Join(*pkg, "testdata", "fuzz", *fuzz)
		if *out == "" {
			*out = seeds
		}
		// go test -run replays a file of the package's seed corpus only.
		replays := sameDir(*out, seeds)
		code := exitOK
		for _, file := range inv.Args() {
			path, err := corpus.ImportLibFuzzer(file, types, *out)
			if err != nil {
				code = report(inv.stderr, "fuzzbox corpus import: ", err)
				continue
			}
			if replays {
				fmt.Fprintf(inv.stdout, "%s: %s (replay: go test -run=%s/%s)\n", file, path, *fuzz, filepath.Base(path))
			} else {
				fmt.Fprintf(inv.stdout, "%s: %s\n", file, path)
			}
		}
		return code
	}
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	a, errA := filepath.Abs(a)
	b, errB := filepath.Abs(b)
	return errA == nil && errB == nil && a == b
}

// corpusExport implements fuzzbox corpus export [-to-libfuzzer] -o DIR FILE|DIR...
func corpusExport(args []string, stdout, stderr io.Writer) int {
	toLibFuzzer := slices.Contains(args, "-to-libfuzzer") || slices.Contains(args, "--to-libfuzzer")
	c := &command{name: "export", group: "corpus", usage: corpusUsage, minArgs: 1, flags: func(fs *flag.FlagSet) func(*invocation) int {
		if toLibFuzzer {
			fs.Bool("to-libfuzzer", true, "write libFuzzer inputs (fuzzbox-libfuzzer-v1) instead of raw bytes")
		}
		dir := fs.String("o", "", "`DIR` to write the files to (required)")
		return func(inv *invocation) int {
			if *dir == "" {
				return inv.usageError("export: -o DIR is required")
			}
			if err := os.MkdirAll(*dir, 0o777); err != nil {
				return report(inv.stderr, "fuzzbox corpus export: ", err)
			}
			return report(inv.stderr, "fuzzbox corpus: ", corpus.Export(inv.Args(), *dir, toLibFuzzer)...)
		}
	}}
	return c.main(args, stdout, stderr)
}

func checkFlags(fs *flag.FlagSet) func(*invocation) int {
	typeList := fs.String("types", "", "also check the values against the fuzz function's argument `types`, e.g. 'string,int'")
	return func(inv *invocation) int {
		var types []reflect.Type
		if *typeList != "" {
			ts, err := corpus.ParseTypes(*typeList)
			if err != nil {
				return inv.usageError("check: -types: " + oneLine(err))
			}
			types = ts
		}
		// The list of bad files is the command's output: stdout, one per line.
		bad, dirErrs := corpus.Check(inv.Args(), types)
		return max(report(inv.stdout, "fuzzbox corpus: ", dirErrs...), report(inv.stdout, "", bad...))
	}
}
