package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// runCorpusWith runs "fuzzbox corpus args..." with stdin.
func runCorpusWith(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	old := corpusStdin
	corpusStdin = strings.NewReader(stdin)
	defer func() { corpusStdin = old }()
	var out, errb bytes.Buffer
	code := runCorpus(args, &out, &errb)
	return code, out.String(), errb.String()
}

const td = "testdata/corpus/"

func TestCorpusCommand(t *testing.T) {
	for _, tc := range []struct {
		args               []string
		code               int
		stdout, stderr     string // substrings
		stdin              string
		stdoutNot, errLine string
	}{
		{args: nil, code: exitUsage, stderr: "missing subcommand"},
		{args: []string{"frob"}, code: exitUsage, stderr: `unknown subcommand "frob"`},
		{args: []string{"-h"}, code: exitOK, stdout: "usage: fuzzbox corpus"},
		{args: []string{"check", "-h"}, code: exitOK, stdout: "check [-types"},
		{args: []string{"check"}, code: exitUsage, stderr: "missing file arguments"},
		{args: []string{"check", "-bogus", "x"}, code: exitUsage, stderr: "flag provided but not defined"},
		{args: []string{"check", "-types", "string,complex64", td + "alltypes"}, code: exitUsage, stderr: "complex64"},
		{args: []string{"import", "-o", "x", "-type", "int", "f"}, code: exitUsage, stderr: "want []byte or string"},
		{args: []string{"import", "f"}, code: exitUsage, stderr: "-o DIR is required"},
		{args: []string{"encode", "extra"}, code: exitUsage, stderr: "unexpected arguments"},
		{args: []string{"cat", "-fuzz=Parse", "x"}, code: exitUsage, stderr: "-fuzz must name one fuzz test"},
		{args: []string{"check", td + "alltypes", "../../testdata/corpus-example/FuzzParse"}, code: exitOK},
		{args: []string{"check", td}, code: exitFinding,
			stdout: td + "bad-header:1: header is \"not a corpus file\", want \"go test fuzz v1\"\n" + td + "bad-int:3: \"int(1.5)\": int needs an integer literal\n"},
		{args: []string{"check", "-types", "[]byte,string,bool,int64", "../../testdata/corpus-example/FuzzParse"}, code: exitOK},
		{args: []string{"check", "-types", "string,string,bool,int64", td + "bad-int", "../../testdata/corpus-example/FuzzParse"}, code: exitFinding,
			stdout: "mismatched types in corpus entry: [[]uint8 string bool int64], want [string string bool int64]"},
		{args: []string{"cat", td + "alltypes"}, code: exitOK, stdout: "  0: []byte(\"\\x00\\xff\")  (2 bytes)\n"},
		{args: []string{"cat", td + "missing"}, code: exitFinding, stderr: "missing: no such file or directory"},
		// A directory is its files, as check reads it ("is a directory" before).
		{args: []string{"cat", "../../testdata/corpus-example/FuzzParse"}, code: exitOK, stdout: "FuzzParse/cdf9027d599b6ae3:\n  0: []byte(\"GIF89a\\x00\\xff\")"},
		{args: []string{"decode", td}, code: exitFinding, stdout: `{"file":"testdata/corpus/alltypes"`, stderr: "bad-int:3:"},
		{args: []string{"decode", td + "alltypes"}, code: exitOK, stdout: `{"type":"float64","value":"NaN","bits":"0x7ff8000000000002"}`},
		{args: []string{"encode"}, stdin: `{"values":[{"type":"int8","value":"-129"}]}`, code: exitFinding, stderr: "invalid int8 value"},
		{args: []string{"encode"}, stdin: `{"values":[{"type":"[]byte","text":"a","base64":"YQ=="}]}`, code: exitFinding, stderr: "exactly one of"},
		{args: []string{"encode"}, stdin: `{"values":[{"type":"float32","bits":"0x7fc00001"},{"type":"byte","value":"10"}]}`,
			code: exitOK, stdout: "go test fuzz v1\nmath.Float32frombits(0x7fc00001)\nbyte('\\n')\n"},
		{args: []string{"encode"}, stdin: `{"values":[{"type":"string","base64":"/w=="}],"extra":1}`, code: exitFinding, stderr: "unknown field"},
		{args: []string{"encode"}, stdin: "", code: exitFinding, stderr: "EOF"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := runCorpusWith(t, tc.stdin, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.stdout) || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit %d, stdout with %q, stderr with %q",
					code, out, errOut, tc.code, tc.stdout, tc.stderr)
			}
			if tc.code == exitUsage && !strings.Contains(errOut, "usage: fuzzbox corpus") {
				t.Errorf("usage error without usage: %q", errOut)
			}
		})
	}
}

// TestDecodeEncodeIdentity: decode | encode reproduces canonical files byte
// for byte (toolchain-written files are canonical; corpus's toolchain tests
// prove Marshal matches the toolchain).
func TestDecodeEncodeIdentity(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/corpus-example/FuzzParse/*")
	files = append(files, td+"alltypes")
	for _, f := range files {
		want, _ := os.ReadFile(f)
		code, js, errOut := runCorpusWith(t, "", "decode", f)
		if code != exitOK {
			t.Fatalf("decode %s: %s", f, errOut)
		}
		code, got, errOut := runCorpusWith(t, js, "encode")
		if code != exitOK || got != string(want) {
			t.Errorf("decode %s | encode = %d %q\n%s\nwant\n%s", f, code, errOut, got, want)
		}
	}
}

func TestEncodeToDir(t *testing.T) {
	dir := t.TempDir()
	_, js, _ := runCorpusWith(t, "", "decode", td+"alltypes", "../../testdata/corpus-example/FuzzParse/6021d7f8d34de6e3")
	code, out, errOut := runCorpusWith(t, js, "encode", "-o", dir)
	if code != exitOK || strings.Count(out, "\n") != 2 {
		t.Fatalf("encode -o: %d %q %q", code, out, errOut)
	}
	for _, p := range strings.Fields(out) {
		data, err := os.ReadFile(p)
		if err != nil || filepath.Base(p) != corpus.Name(data) {
			t.Errorf("%s: %v, name is not the content hash", p, err)
		}
	}
}

func TestImportExport(t *testing.T) {
	raw := t.TempDir()
	files := map[string]string{"a": "\x00\xff\xfe", "b": "plain text", "sub/c": ""}
	for name, data := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(raw, name)), 0o777)
		os.WriteFile(filepath.Join(raw, name), []byte(data), 0o666)
	}
	for _, typ := range []string{"[]byte", "string"} {
		entries, back := filepath.Join(t.TempDir(), "FuzzX"), t.TempDir()
		if code, _, errOut := runCorpusWith(t, "", "import", "-type", typ, "-o", entries, raw); code != exitOK {
			t.Fatalf("import: %s", errOut)
		}
		if code, out, _ := runCorpusWith(t, "", "check", "-types", typ, entries); code != exitOK {
			t.Errorf("imported entries fail check: %s", out)
		}
		if code, _, errOut := runCorpusWith(t, "", "export", "-o", back, entries); code != exitOK {
			t.Fatalf("export: %s", errOut)
		}
		got := map[string]bool{}
		ents, _ := os.ReadDir(back)
		for _, e := range ents {
			data, _ := os.ReadFile(filepath.Join(back, e.Name()))
			got[string(data)] = true
		}
		for name, data := range files {
			if !got[data] {
				t.Errorf("%s: %s did not come back from import/export", typ, name)
			}
		}
	}
	code, _, errOut := runCorpusWith(t, "", "export", "-o", t.TempDir(), td+"alltypes")
	if code != exitFinding || !strings.Contains(errOut, "has 21 values") {
		t.Errorf("export of a multi-value entry = %d %q", code, errOut)
	}
}
