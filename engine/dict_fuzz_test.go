package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDictFile writes arbitrary tokens as the automatic dictionary and
// reads them back as the coordinator does at the next start: the same
// tokens, in order, byte for byte.
func FuzzDictFile(f *testing.F) {
	f.Add(genDictBytes([]byte("tok"), []byte{0, 1, 2, 0xff}, []byte(`"\x`)))
	f.Add(genDictBytes([]byte{}, []byte("\n#x"), []byte("a=\"b\"")))
	f.Add(genDictBytes())
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, in []byte) {
		toks := genDict(in)
		path := filepath.Join(dir, "FuzzX.dict")
		if err := writeDictFile(path, toks); err != nil {
			t.Fatal(err)
		}
		got, err := readDict(path)
		if err != nil {
			t.Fatalf("reading back %q: %v", toks, err)
		}
		if len(got) != len(toks) {
			t.Fatalf("wrote %q, read %q", toks, got)
		}
		for i := range got {
			if !bytes.Equal(got[i], toks[i]) {
				t.Fatalf("wrote %q, read %q", toks, got)
			}
		}
	})
}

// genDictBytes is the description of toks that genDict reads back.
func genDictBytes(toks ...[]byte) []byte {
	b := []byte{byte(len(toks))}
	for _, tok := range toks {
		b = append(append(b, byte(len(tok))), tok...)
	}
	return b
}

func TestWriteDictFileFailureLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "FuzzX.dict")
	if err := os.Mkdir(path, 0o755); err != nil { // a directory cannot be renamed over
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeDictFile(path, [][]byte{[]byte("tok")}); err == nil {
		t.Fatal("writeDictFile over a non-empty directory succeeded")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".dict-*"))
	if len(left) > 0 {
		t.Errorf("a failed write left %q behind", left)
	}
}

func TestLoadDictsWithoutCorpusDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	// A stray ".dict" in the working directory is no seed dictionary.
	if err := os.WriteFile(".dict", []byte("\"stray\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	toks, err := loadDicts("", "")
	if err != nil || len(toks) != 0 {
		t.Errorf("loadDicts(\"\", \"\") = %q, %v; want nothing", toks, err)
	}
}
