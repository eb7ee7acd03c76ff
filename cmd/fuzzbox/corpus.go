package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fuzzbox/fuzzbox/corpus"
)

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
	"minimize": corpusMinimize,
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

func corpusCat(fs *flag.FlagSet, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	return forEachFile(fs.Args(), stderr, func(e corpus.Entry) error {
		fmt.Fprintf(stdout, "%s:\n", e.Path)
		for i, v := range e.Values {
			fmt.Fprintf(stdout, "  %d: %s\n", i, describeValue(v))
		}
		return nil
	})
}

// describeValue spells one value for people: its v1 literal, plus the
// length of byte slices and strings.
func describeValue(v any) string {
	b, _ := corpus.Marshal(v)
	lit := strings.TrimSuffix(strings.TrimPrefix(string(b), corpus.Version1+"\n"), "\n")
	switch v := v.(type) {
	case []byte:
		return fmt.Sprintf("%s  (%d bytes)", lit, len(v))
	case string:
		return fmt.Sprintf("%s  (%d bytes)", lit, len(v))
	}
	return lit
}

// forEachFile reads each named file and calls fn with it; bad files are
// reported on stderr and make the result exitFinding.
func forEachFile(paths []string, stderr io.Writer, fn func(corpus.Entry) error) int {
	return reportEachFile(paths, stderr, "fuzzbox corpus: ", fn)
}

// reportEachFile is forEachFile writing "prefix path:line: reason" lines to w.
func reportEachFile(paths []string, w io.Writer, prefix string, fn func(corpus.Entry) error) int {
	code := exitOK
	for _, p := range paths {
		e, err := corpus.ReadFile(p, nil)
		if err == nil {
			err = fn(e)
		}
		if err != nil {
			fmt.Fprintf(w, "%s%s\n", prefix, fileMsg(p, err))
			code = exitFinding
		}
	}
	return code
}

// fileMsg formats err about path as "path[:line]: reason".
func fileMsg(path string, err error) string {
	var fe *corpus.FileError
	if errors.As(err, &fe) {
		return fe.Error()
	}
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: %v", pe.Path, pe.Err)
	}
	return fmt.Sprintf("%s: %v", path, err)
}

func corpusDecode(fs *flag.FlagSet, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	return forEachFile(fs.Args(), stderr, func(e corpus.Entry) error {
		obj := jsonEntry{File: e.Path, Values: make([]jsonValue, len(e.Values))}
		for i, v := range e.Values {
			obj.Values[i] = toJSON(v)
		}
		line, err := json.Marshal(obj)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", line)
		return err
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
	dec := json.NewDecoder(bufio.NewReader(stdin))
	dec.DisallowUnknownFields()
	for n := 1; ; n++ {
		var obj jsonEntry
		if err := dec.Decode(&obj); err == io.EOF && n > 1 {
			return exitOK
		} else if err != nil {
			fmt.Fprintf(stderr, "fuzzbox corpus encode: object %d: %v\n", n, err)
			return exitFinding
		}
		data, err := obj.encode()
		if err != nil {
			fmt.Fprintf(stderr, "fuzzbox corpus encode: object %d: %v\n", n, err)
			return exitFinding
		}
		if *dir == "" {
			stdout.Write(data)
			if dec.More() {
				fmt.Fprintln(stderr, "fuzzbox corpus encode: more than one object; use -o DIR")
				return exitFinding
			}
			return exitOK
		}
		p, err := corpus.Write(*dir, data)
		if err != nil {
			fmt.Fprintf(stderr, "fuzzbox corpus encode: %v\n", err)
			return exitFinding
		}
		fmt.Fprintln(stdout, p)
	}
}

func corpusImport(fs *flag.FlagSet, args []string, _ io.Reader, stdout, stderr io.Writer) int {
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
	code := exitOK
	for _, root := range fs.Args() {
		err := filepath.WalkDir(root, func(p string, d iofs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			raw, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var v any = raw
			if *typ == "string" {
				v = string(raw)
			}
			data, err := corpus.Marshal(v)
			if err == nil {
				_, err = corpus.Write(*dir, data)
			}
			return err
		})
		if err != nil {
			fmt.Fprintf(stderr, "fuzzbox corpus import: %s\n", fileMsg(root, err))
			code = exitFinding
		}
	}
	return code
}

func corpusExport(fs *flag.FlagSet, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	dir := fs.String("o", "", "`DIR` to write the raw files to (required)")
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	if *dir == "" {
		return corpusUsageError(stderr, "export: -o DIR is required")
	}
	if err := os.MkdirAll(*dir, 0o777); err != nil {
		fmt.Fprintf(stderr, "fuzzbox corpus export: %v\n", err)
		return exitFinding
	}
	return forEachEntryArg(fs.Args(), stderr, func(e corpus.Entry) error {
		if len(e.Values) != 1 {
			return fmt.Errorf("has %d values, export needs exactly one []byte or string", len(e.Values))
		}
		var raw []byte
		switch v := e.Values[0].(type) {
		case []byte:
			raw = v
		case string:
			raw = []byte(v)
		default:
			return fmt.Errorf("holds a %T, export needs []byte or string", v)
		}
		return os.WriteFile(filepath.Join(*dir, filepath.Base(e.Path)), raw, 0o666)
	})
}

// forEachEntryArg expands FILE|DIR arguments (a directory's files, without
// recursion, as the toolchain reads them) and calls fn on each good entry.
func forEachEntryArg(args []string, stderr io.Writer, fn func(corpus.Entry) error) int {
	return reportEachEntryArg(args, stderr, "fuzzbox corpus: ", fn)
}

func reportEachEntryArg(args []string, stderr io.Writer, prefix string, fn func(corpus.Entry) error) int {
	var files []string
	code := exitOK
	for _, a := range args {
		if info, err := os.Stat(a); err == nil && info.IsDir() {
			ents, err := os.ReadDir(a)
			if err != nil {
				fmt.Fprintf(stderr, "fuzzbox corpus: %v\n", err)
				code = exitFinding
			}
			for _, e := range ents {
				if !e.IsDir() {
					files = append(files, filepath.Join(a, e.Name()))
				}
			}
			continue
		}
		files = append(files, a)
	}
	if c := reportEachFile(files, stderr, prefix, fn); c != exitOK {
		code = c
	}
	return code
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
	return reportEachEntryArg(fs.Args(), stdout, "", func(e corpus.Entry) error {
		if types == nil {
			return nil
		}
		if err := corpus.CheckTypes(e.Values, types); err != nil {
			return &corpus.FileError{Path: e.Path, Line: typeLine(err, e.Lines), Err: err}
		}
		return nil
	})
}

// typeLine returns the line of the value a *corpus.TypeError points at.
func typeLine(err error, lines []int) int {
	var te *corpus.TypeError
	if !errors.As(err, &te) || len(lines) == 0 {
		return 0
	}
	return lines[min(te.Index, len(lines)-1)]
}

// jsonEntry is one line of "decode" output and "encode" input (docs/corpus.md).
type jsonEntry struct {
	File   string      `json:"file,omitempty"` // decode: the file read; ignored by encode
	Values []jsonValue `json:"values"`
}

// jsonValue is one value; exactly one of Text, Base64, Value, Bits carries it
// (Value may accompany Bits for floats, as a readable note).
type jsonValue struct {
	Type   string          `json:"type"`
	Text   *string         `json:"text,omitempty"`   // []byte, string: valid UTF-8 contents
	Base64 *string         `json:"base64,omitempty"` // []byte, string: any contents, standard base64
	Value  json.RawMessage `json:"value,omitempty"`  // bool: true/false; integers: decimal string; floats: readable
	Bits   string          `json:"bits,omitempty"`   // floats: IEEE 754 bits as 0x-prefixed hex, exact
}

func toJSON(v any) jsonValue {
	str := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	switch v := v.(type) {
	case []byte:
		return bytesJSON("[]byte", string(v))
	case string:
		return bytesJSON("string", v)
	case bool:
		return jsonValue{Type: "bool", Value: json.RawMessage(strconv.FormatBool(v))}
	case float32:
		return jsonValue{Type: "float32", Value: str(strconv.FormatFloat(float64(v), 'g', -1, 32)),
			Bits: fmt.Sprintf("%#08x", math.Float32bits(v))}
	case float64:
		return jsonValue{Type: "float64", Value: str(strconv.FormatFloat(v, 'g', -1, 64)),
			Bits: fmt.Sprintf("%#016x", math.Float64bits(v))}
	case byte:
		return jsonValue{Type: "byte", Value: str(fmt.Sprint(v))}
	case rune:
		return jsonValue{Type: "rune", Value: str(fmt.Sprint(v))}
	}
	return jsonValue{Type: fmt.Sprintf("%T", v), Value: str(fmt.Sprint(v))}
}

func bytesJSON(typ, s string) jsonValue {
	if utf8.ValidString(s) {
		return jsonValue{Type: typ, Text: &s}
	}
	b := base64.StdEncoding.EncodeToString([]byte(s))
	return jsonValue{Type: typ, Base64: &b}
}

func (e jsonEntry) encode() ([]byte, error) {
	vals := make([]any, len(e.Values))
	for i, jv := range e.Values {
		v, err := jv.decode()
		if err != nil {
			return nil, fmt.Errorf("value %d (%s): %w", i, jv.Type, err)
		}
		vals[i] = v
	}
	return corpus.Marshal(vals...)
}

func (jv jsonValue) decode() (any, error) {
	switch jv.Type {
	case "[]byte", "string":
		s, err := jv.contents()
		if jv.Type == "[]byte" {
			return []byte(s), err
		}
		return s, err
	case "bool":
		var b bool
		err := json.Unmarshal(jv.Value, &b)
		return b, err
	case "float32", "float64":
		return jv.float()
	}
	t, ok := corpus.TypeByName(jv.Type)
	if !ok {
		return nil, errors.New("unsupported type")
	}
	var s string
	if err := json.Unmarshal(jv.Value, &s); err != nil {
		return nil, errors.New(`integer "value" must be a decimal string`)
	}
	// Spell the integer as a v1 line and let the corpus parser size it.
	vals, err := corpus.Unmarshal([]byte(corpus.Version1 + "\n" + t.String() + "(" + s + ")\n"))
	if err != nil || len(vals) != 1 || strings.ContainsAny(s, "()\n") {
		return nil, fmt.Errorf("invalid %s value %q", jv.Type, s)
	}
	return vals[0], nil
}

func (jv jsonValue) contents() (string, error) {
	switch {
	case jv.Text != nil && jv.Base64 == nil:
		return *jv.Text, nil
	case jv.Base64 != nil && jv.Text == nil:
		b, err := base64.StdEncoding.DecodeString(*jv.Base64)
		return string(b), err
	}
	return "", errors.New(`need exactly one of "text" and "base64"`)
}

func (jv jsonValue) float() (any, error) {
	size := 64
	if jv.Type == "float32" {
		size = 32
	}
	if jv.Bits == "" {
		var s string
		if err := json.Unmarshal(jv.Value, &s); err != nil {
			return nil, errors.New(`float needs "bits" or a string "value"`)
		}
		f, err := strconv.ParseFloat(s, size)
		if size == 32 {
			return float32(f), err
		}
		return f, err
	}
	bits, err := strconv.ParseUint(jv.Bits, 0, size)
	if err != nil || !strings.HasPrefix(jv.Bits, "0x") {
		return nil, fmt.Errorf(`"bits" %q is not 0x-prefixed hex of %d bits`, jv.Bits, size)
	}
	if size == 32 {
		return math.Float32frombits(uint32(bits)), nil
	}
	return math.Float64frombits(bits), nil
}
