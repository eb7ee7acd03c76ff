package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	got := Name([]byte(h + "int(1)\n"))
	if len(got) != 16 || strings.Trim(got, "0123456789abcdef") != "" {
		t.Fatalf("Name = %q", got)
	}
	if Name([]byte("a")) != "ca978112ca1bbdca" { // echo -n a | sha256sum
		t.Errorf("Name(a) = %s, want ca978112ca1bbdca", Name([]byte("a")))
	}
}

func TestWriteAndReadDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "testdata", "fuzz", "FuzzX")
	good, _ := Marshal("hi", 3)
	p, err := Write(dir, good)
	if err != nil || filepath.Base(p) != Name(good) {
		t.Fatalf("Write = %q, %v", p, err)
	}
	info1, _ := os.Stat(p)
	if p2, err := Write(dir, good); err != nil || p2 != p {
		t.Fatalf("second Write = %q, %v", p2, err)
	}
	if info2, _ := os.Stat(p); !info2.ModTime().Equal(info1.ModTime()) {
		t.Errorf("second Write rewrote the entry")
	}
	mustWrite(t, filepath.Join(dir, "bad"), h+"string(\"x\")\nint(1.5)\n")
	mustWrite(t, filepath.Join(dir, "wrongtype"), h+"int(1)\nint(2)\n")
	mustWrite(t, filepath.Join(dir, "sub", "ignored"), "junk")
	ents, err := ReadDir(dir, []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[int]()})
	var me *MalformedError
	if !errors.As(err, &me) || len(me.Errs) != 2 {
		t.Fatalf("ReadDir error = %v, want 2 malformed files", err)
	}
	want := []string{"/bad:3: ", "/wrongtype:2: mismatched types in corpus entry: [int int], want [string int]"}
	for i, line := range strings.Split(me.Error(), "\n") {
		if !strings.Contains(line, want[i]) {
			t.Errorf("error line %d = %q, want it to contain %q", i, line, want[i])
		}
	}
	if len(ents) != 1 || ents[0].Path != p || !sameValues(ents[0].Values, []any{"hi", 3}) || ents[0].Lines[1] != 3 {
		t.Errorf("entries = %+v", ents)
	}
	if ents, err := ReadDir(filepath.Join(dir, "missing"), nil); ents != nil || err != nil {
		t.Errorf("ReadDir(missing) = %v, %v", ents, err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	if len(leftovers) != 0 {
		t.Errorf("Write left %v", leftovers)
	}
}

// TestReadDirRemovedFile: a file removed after the directory was listed
// (another run pruning its cache) is skipped and the others are read; a
// dangling symbolic link still stops the read, as go test stops at it.
func TestReadDirRemovedFile(t *testing.T) {
	dir := t.TempDir()
	a, _ := Marshal("a")
	b, _ := Marshal("b")
	mustWrite(t, filepath.Join(dir, "a"), string(a))
	mustWrite(t, filepath.Join(dir, "b"), string(b))
	ents, err := readFiles(dir, []string{"a", "gone", "b"}, []reflect.Type{reflect.TypeFor[string]()})
	if err != nil || len(ents) != 2 || ents[0].Values[0] != "a" || ents[1].Values[0] != "b" {
		t.Fatalf("readFiles with a file removed after the listing = %+v, %v; want a and b", ents, err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	if ents, err := ReadDir(dir, nil); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadDir with a dangling link = %+v, %v; want its error", ents, err)
	}
}

func TestCheckTypes(t *testing.T) {
	str, i := reflect.TypeFor[string](), reflect.TypeFor[int]()
	for _, tc := range []struct {
		vals  []any
		types []reflect.Type
		want  string
		index int
	}{
		{[]any{"a", 1}, []reflect.Type{str, i}, "", 0},
		{[]any{"a"}, []reflect.Type{str, i}, "wrong number of values in corpus entry: 1, want 2", 1},
		{[]any{1, "a"}, []reflect.Type{str, i}, "mismatched types in corpus entry: [int string], want [string int]", 0},
		{[]any{byte(1)}, []reflect.Type{reflect.TypeFor[uint8]()}, "", 0},
	} {
		err := CheckTypes(tc.vals, tc.types)
		var te *TypeError
		if tc.want == "" && err != nil || tc.want != "" && (!errors.As(err, &te) || te.Msg != tc.want || te.Index != tc.index) {
			t.Errorf("CheckTypes(%v) = %v, want %q at %d", tc.vals, err, tc.want, tc.index)
		}
	}
	if ts, err := ParseTypes("string, []byte,rune"); err != nil || len(ts) != 3 || ts[2] != reflect.TypeFor[int32]() {
		t.Errorf("ParseTypes = %v, %v", ts, err)
	}
	if _, err := ParseTypes("string,complex64"); err == nil {
		t.Errorf("ParseTypes accepted complex64")
	}
}

func TestReadFileTooBig(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	f, _ := os.Create(p)
	f.WriteString(h)
	f.Truncate(MaxFileSize + 1) // sparse: refused from its size, unread
	f.Close()
	_, err := ReadFile(p, nil)
	var fe *FileError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("ReadFile(MaxFileSize+1 bytes) = %v", err)
	}
}

// TestReadFileEscapedWithinLimit: a file of a 20-MiB []byte of zeros, as the
// toolchain writes it (\x00 escapes, 80 MiB), is read: go test reads it and
// can pass its value to a worker (until 2026-12-01 the limit was 64 MiB).
func TestReadFileEscapedWithinLimit(t *testing.T) {
	data, err := Marshal(make([]byte, 20<<20))
	if err != nil || len(data) < 80<<20 {
		t.Fatalf("Marshal: %d bytes, %v", len(data), err)
	}
	p := filepath.Join(t.TempDir(), "zeros")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := ReadFile(p, nil)
	if err != nil || len(e.Values) != 1 || len(e.Values[0].([]byte)) != 20<<20 {
		t.Errorf("ReadFile of an %d-byte file: %v", len(data), err)
	}
}
