package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// fuzzbox corpus: each subcommand parses its flags and prints; package
// corpus does the work (Files, EntryJSON, JSONDecoder, ImportRaw, ...).
func init() {
	register(&command{name: "corpus", short: "read, write and convert go test fuzz v1 corpus files", run: runCorpus})
}

const corpusUsage = `usage: fuzzbox corpus <subcommand> [flags] [arguments]

Subcommands:
  cat FILE...                          show entries readably
  decode FILE...                       print one JSON object per file (schema: docs/corpus.md)
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

Exit status: 0 success, 1 a bad or unconvertible file, 2 a usage error.
`

// corpusSubcommands maps each subcommand to its implementation.
var corpusSubcommands = map[string]func(fs *flag.FlagSet, args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"cat": corpusCat, "decode": corpusDecode, "encode": corpusEncode,
	"import": corpusImport, "export": corpusExport, "check": corpusCheck,
	"minimize": corpusMinimize, "merge": corpusMerge,
}

// corpusStdin is where encode reads; tests replace it.
var corpusStdin io.Reader = os.Stdin

func runCorpus(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return corpusUsageError(stderr, "missing subcommand")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, corpusUsage)
		return exitOK
	}
	sub, ok := corpusSubcommands[args[0]]
	if !ok {
		return corpusUsageError(stderr, fmt.Sprintf("unknown subcommand %q", args[0]))
	}
	fs := flag.NewFlagSet("fuzzbox corpus "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return sub(fs, args[1:], corpusStdin, stdout, stderr)
}

func corpusUsageError(stderr io.Writer, reason string) int {
	fmt.Fprintf(stderr, "fuzzbox corpus: %s\n%s", reason, corpusUsage)
	return exitUsage
}

// parseFlags parses args; it returns ok=false and the exit code on -h or a
// usage error. minArgs is the least number of positional arguments.
func parseFlags(fs *flag.FlagSet, args []string, minArgs int, stdout, stderr io.Writer) (int, bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, corpusUsage)
		return exitOK, false
	case err != nil:
		return corpusUsageError(stderr, oneLine(err)), false
	case fs.NArg() < minArgs:
		return corpusUsageError(stderr, fs.Name()+": missing file arguments"), false
	}
	return 0, true
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

// eachFile calls fn, if not nil, on the entry of each of paths, checked
// against types if not nil, and reports bad files and fn's errors on w
// after prefix.
func eachFile(w io.Writer, prefix string, paths []string, types []reflect.Type, fn func(corpus.Entry) error) int {
	code := exitOK
	for e, err := range corpus.Files(paths, types) {
		if err == nil && fn != nil {
			err = fn(e)
		}
		if err != nil {
			code = report(w, prefix, err)
		}
	}
	return code
}

// eachEntryArg is eachFile over FILE|DIR arguments: a directory stands for
// its files, without recursion, as the toolchain reads it.
func eachEntryArg(w io.Writer, prefix string, args []string, types []reflect.Type, fn func(corpus.Entry) error) int {
	files, dirErrs := corpus.ExpandDirs(args)
	code := report(w, "fuzzbox corpus: ", dirErrs...)
	return max(code, eachFile(w, prefix, files, types, fn))
}

func corpusCat(fs *flag.FlagSet, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	return eachFile(stderr, "fuzzbox corpus: ", fs.Args(), nil, func(e corpus.Entry) error {
		fmt.Fprintf(stdout, "%s:\n", e.Path)
		for i, v := range e.Values {
			fmt.Fprintf(stdout, "  %d: %s\n", i, corpus.Describe(v))
		}
		return nil
	})
}

func corpusDecode(fs *flag.FlagSet, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	return eachFile(stderr, "fuzzbox corpus: ", fs.Args(), nil, func(e corpus.Entry) error {
		line, err := corpus.EntryJSON(e)
		if err == nil {
			_, err = fmt.Fprintf(stdout, "%s\n", line)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", e.Path, err)
		}
		return nil
	})
}

func corpusEncode(fs *flag.FlagSet, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	dir := fs.String("o", "", "write each object as an entry of `DIR` instead of printing one")
	if code, ok := parseFlags(fs, args, 0, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return corpusUsageError(stderr, "encode: unexpected arguments (input is read from stdin)")
	}
	dec := corpus.NewJSONDecoder(stdin)
	for {
		data, err := dec.Decode()
		if err == io.EOF {
			return exitOK
		} else if err != nil {
			return report(stderr, "fuzzbox corpus encode: ", err)
		}
		if *dir == "" {
			stdout.Write(data)
			if !dec.More() {
				return exitOK
			}
			fmt.Fprintln(stderr, "fuzzbox corpus encode: more than one object; use -o DIR")
			return exitFinding
		}
		p, err := corpus.Write(*dir, data)
		if err != nil {
			return report(stderr, "fuzzbox corpus encode: ", err)
		}
		fmt.Fprintln(stdout, p)
	}
}

func corpusImport(fs *flag.FlagSet, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if slices.Contains(args, "-from-libfuzzer") || slices.Contains(args, "--from-libfuzzer") {
		return corpusImportLibFuzzer(fs, args, stdout, stderr)
	}
	typ := fs.String("type", "[]byte", "argument type of the entries: `[]byte` or string")
	dir := fs.String("o", "", "corpus `DIR` to write the entries to (required)")
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	if *typ != "[]byte" && *typ != "string" {
		return corpusUsageError(stderr, fmt.Sprintf("import: -type %q: want []byte or string", *typ))
	}
	if *dir == "" {
		return corpusUsageError(stderr, "import: -o DIR is required")
	}
	t, _ := corpus.TypeByName(*typ)
	return report(stderr, "fuzzbox corpus import: ", corpus.ImportRaw(fs.Args(), *dir, t)...)
}

// corpusImportLibFuzzer implements
// fuzzbox corpus import -from-libfuzzer -fuzz=FuzzX [-types LIST] [-pkg DIR] [-o DIR] FILE...
func corpusImportLibFuzzer(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	fs.Bool("from-libfuzzer", true, "the files are libFuzzer inputs (fuzzbox-libfuzzer-v1)")
	fuzz := fs.String("fuzz", "", "the fuzz test `FuzzX` the inputs are for (required)")
	typeList := fs.String("types", "", "its argument `types`, such as 'string,int' (default: read from the package source)")
	pkg := fs.String("pkg", ".", "package `DIR` of the fuzz test")
	out := fs.String("o", "", "corpus `DIR` to write to (default PKG/testdata/fuzz/FuzzX)")
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	if *fuzz == "" {
		return corpusUsageError(stderr, "import: -from-libfuzzer needs -fuzz=FuzzX")
	}
	types, err := resolveTypes(*typeList, *pkg, *fuzz)
	if err != nil {
		report(stderr, "fuzzbox corpus import: ", err)
		return exitUsage
	}
	if *out == "" {
		*out = filepath.Join(*pkg, "testdata", "fuzz", *fuzz)
	}
	code := exitOK
	for _, file := range fs.Args() {
		path, err := corpus.ImportLibFuzzer(file, types, *out)
		if err != nil {
			code = report(stderr, "fuzzbox corpus import: ", err)
			continue
		}
		fmt.Fprintf(stdout, "%s: %s (replay: go test -run=%s/%s)\n", file, path, *fuzz, filepath.Base(path))
	}
	return code
}

// resolveTypes returns the -types list, or the fuzz test's argument types
// read from its source.
func resolveTypes(list, pkgDir, fuzz string) ([]reflect.Type, error) {
	if list != "" {
		return corpus.ParseTypes(list)
	}
	return corpus.FuzzArgTypes(pkgDir, fuzz)
}

// corpusExport implements fuzzbox corpus export [-to-libfuzzer] -o DIR FILE|DIR...
func corpusExport(fs *flag.FlagSet, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	export := corpus.ExportRaw
	if slices.Contains(args, "-to-libfuzzer") || slices.Contains(args, "--to-libfuzzer") {
		fs.Bool("to-libfuzzer", true, "write libFuzzer inputs (fuzzbox-libfuzzer-v1) instead of raw bytes")
		export = corpus.ExportLibFuzzer
	}
	dir := fs.String("o", "", "`DIR` to write the files to (required)")
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	if *dir == "" {
		return corpusUsageError(stderr, "export: -o DIR is required")
	}
	if err := os.MkdirAll(*dir, 0o777); err != nil {
		return report(stderr, "fuzzbox corpus export: ", err)
	}
	return eachEntryArg(stderr, "fuzzbox corpus: ", fs.Args(), nil, func(e corpus.Entry) error { return export(e, *dir) })
}

func corpusCheck(fs *flag.FlagSet, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	typeList := fs.String("types", "", "also check the values against the fuzz function's argument `types`, e.g. 'string,int'")
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	var types []reflect.Type
	if *typeList != "" {
		ts, err := corpus.ParseTypes(*typeList)
		if err != nil {
			return corpusUsageError(stderr, "check: -types: "+oneLine(err))
		}
		types = ts
	}
	// The list of bad files is the command's output: stdout, one per line.
	return eachEntryArg(stdout, "", fs.Args(), types, nil)
}
