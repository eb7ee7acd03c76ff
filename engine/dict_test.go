package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseDict(t *testing.T) {
	in := `# AFL dictionary
kw1="if"
kw_2@1="el\x41se"

  "plain"	
# "commented"
quote="a\"b"
back="c\\d"
hex="\x00\xff\xAb"
empty=""
spaces="  x  "
eq="a=b"
`
	want := [][]byte{[]byte("if"), []byte("elAse"), []byte("plain"), []byte(`a"b`), []byte(`c\d`),
		{0x00, 0xff, 0xab}, []byte(""), []byte("  x  "), []byte("a=b")}
	got, err := parseDictFile(t, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("parseDict = %q, want %q", got, want)
	}
	for i := range want {
		if string(got[i]) != string(want[i]) {
			t.Errorf("token %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestParseDictErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"unquoted", "ok=\"a\"\nbare\n", 2, "double-quoted"},
		{"no closing quote", "\n\nx=\"abc\n", 3, "double-quoted"},
		{"lone quote", `"`, 1, "double-quoted"},
		{"trailing backslash", `x="ab\"`, 1, "backslash"},
		{"backslash at end", "x=\"ab\\\\\\\"", 1, "backslash"},
		{"truncated hex", `x="\x4"`, 1, `\x`},
		{"bad hex", `x="\xzz"`, 1, `\x`},
		{"unknown escape", `x="\n"`, 1, `\n`},
		{"garbage after", "# c\n\n\nx=\"a\" junk\n", 4, "double-quoted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, err := parseDictFile(t, tt.in)
			if err == nil {
				t.Fatalf("parseDict(%q) = %q, want an error", tt.in, toks)
			}
			if want := ": line " + strconv.Itoa(tt.line) + ":"; !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
			if !strings.Contains(err.Error(), "test.dict") {
				t.Errorf("error %q does not name the file", err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not mention %q", err, tt.msg)
			}
		})
	}
}

// parseDictFile parses s through the engine's dictionary reader.
func parseDictFile(t *testing.T, s string) ([][]byte, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.dict")
	if err := os.WriteFile(path, []byte(s), 0o666); err != nil {
		t.Fatal(err)
	}
	return readDict(path)
}

func TestWriteDictFileRoundTrip(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	toks := [][]byte{[]byte("plain"), []byte(`q"uote`), []byte(`back\slash`), all, []byte("# not a comment")}
	path := filepath.Join(t.TempDir(), "sub", "auto.dict")
	if err := writeDictFile(path, toks); err != nil {
		t.Fatal(err)
	}
	got, err := readDict(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, toks) {
		t.Errorf("read back %q, want %q", got, toks)
	}
	// Rewriting replaces the file.
	if err := writeDictFile(path, toks[:1]); err != nil {
		t.Fatal(err)
	}
	if got, err := readDict(path); err != nil || len(got) != 1 {
		t.Errorf("after rewriting: %q, %v", got, err)
	}
	ents, _ := os.ReadDir(filepath.Dir(path))
	if len(ents) != 1 {
		t.Errorf("writeDictFile left temporary files: %v", ents)
	}
}

func TestLoadDicts(t *testing.T) {
	dir := t.TempDir()
	corpusDir := filepath.Join(dir, "testdata", "fuzz", "FuzzX")
	if err := os.MkdirAll(filepath.Dir(corpusDir), 0o777); err != nil {
		t.Fatal(err)
	}
	user := filepath.Join(dir, "user.dict")
	write := func(path, s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write(user, `"from-flag"`+"\n")

	// The conventional dictionary is optional.
	got, err := loadDicts(user, corpusDir)
	if err != nil || !reflect.DeepEqual(got, [][]byte{[]byte("from-flag")}) {
		t.Fatalf("loadDicts without FuzzX.dict = %q, %v", got, err)
	}
	write(corpusDir+".dict", `t="conventional"`+"\n")
	got, err = loadDicts(user, corpusDir+"/")
	if err != nil || !reflect.DeepEqual(got, [][]byte{[]byte("from-flag"), []byte("conventional")}) {
		t.Fatalf("loadDicts = %q, %v", got, err)
	}
	if got, err := loadDicts("", corpusDir); err != nil || len(got) != 1 {
		t.Fatalf("loadDicts without -dict = %q, %v", got, err)
	}
	// A named -dict must exist; a bad file names itself and the line.
	if _, err := loadDicts(filepath.Join(dir, "missing.dict"), corpusDir); err == nil {
		t.Error("a missing -dict file is not an error")
	}
	write(corpusDir+".dict", "\"ok\"\nbad\n")
	_, err = loadDicts("", corpusDir)
	if err == nil || !strings.Contains(err.Error(), "FuzzX.dict") || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("loadDicts of a bad conventional dictionary: %v", err)
	}
}

func TestDictionary(t *testing.T) {
	d := newDictionary([][]byte{[]byte("user")})
	d.add([][]byte{[]byte("user"), []byte("auto"), nil, []byte("auto"), make([]byte, 65)})
	got := d.tokens()
	if want := [][]byte{[]byte("user"), []byte("auto")}; !reflect.DeepEqual(got, want) {
		t.Fatalf("tokens = %q, want %q", got, want)
	}
	for i := 0; i < 2*maxAutoTokens; i++ {
		d.add([][]byte{[]byte("tok" + strconv.Itoa(i))})
	}
	if n := len(d.tokens()); n != 1+maxAutoTokens {
		t.Errorf("%d tokens after many additions, want %d", n, 1+maxAutoTokens)
	}
	if string(d.user[0]) != "user" || len(d.user) != 1 {
		t.Errorf("tokens() modified the user dictionary: %q", d.user)
	}
}

// TestDictionaryTokensShared pins what tokens may share between calls: the
// same tokens until the automatic dictionary grows, then all of them, and a
// slice handed out earlier (a worker may still read it) stays as it was.
func TestDictionaryTokensShared(t *testing.T) {
	d := newDictionary([][]byte{[]byte("user")})
	d.add([][]byte{[]byte("a")})
	first := d.tokens()
	if again := d.tokens(); !reflect.DeepEqual(again, first) {
		t.Fatalf("tokens = %q, then %q with no change", first, again)
	}
	d.add([][]byte{[]byte("b"), []byte("a")})
	got := d.tokens()
	if want := [][]byte{[]byte("user"), []byte("a"), []byte("b")}; !reflect.DeepEqual(got, want) {
		t.Errorf("tokens after an addition = %q, want %q", got, want)
	}
	if want := [][]byte{[]byte("user"), []byte("a")}; !reflect.DeepEqual(first, want) {
		t.Errorf("a slice handed out earlier became %q, want %q", first, want)
	}
	d.add([][]byte{[]byte("a")}) // nothing new
	if again := d.tokens(); len(again) != 3 || &again[0] != &got[0] {
		t.Errorf("tokens = %q, not the same slice after adding nothing new", again)
	}
}

// TestBaselineTracesUntilDictionaryFull checks that the loop asks for a
// baseline input's comparisons only while the automatic dictionary takes
// tokens (a traced execution costs more, and its tokens would be dropped),
// and never with -nocmp.
func TestBaselineTracesUntilDictionaryFull(t *testing.T) {
	inputs := []*entry{{enc: []byte("a")}, {enc: []byte("b")}, {enc: []byte("c")}}
	for _, noCmp := range []bool{false, true} {
		c := &coordinator{setup: &setup{opts: Options{NoCmp: noCmp}}, dict: newDictionary(nil), inputs: inputs}
		w := &worker{work: make(chan work, 1)}
		var traced []bool
		next := func() {
			c.serve(t.Context(), w)
			traced = append(traced, (<-w.work).trace)
		}
		next()
		for i := range maxAutoTokens {
			c.dict.add([][]byte{[]byte("token" + strconv.Itoa(i))})
		}
		if !c.dict.full() {
			t.Fatalf("dictionary of %d tokens not full", len(c.dict.auto))
		}
		next()
		c.dict.add([][]byte{[]byte("one more")})
		next()
		if want := []bool{!noCmp, false, false}; !reflect.DeepEqual(traced, want) {
			t.Errorf("noCmp=%v: baseline inputs traced %v, want %v", noCmp, traced, want)
		}
	}
}
