package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestFiles: good entries are yielded as such; every bad file gives one
// *FileError saying "path[:line]: reason", in the order of the paths.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	good, bad, wrong, missing := filepath.Join(dir, "good"), filepath.Join(dir, "bad"), filepath.Join(dir, "wrong"), filepath.Join(dir, "missing")
	mustWrite(t, good, h+"string(\"x\")\nint(1)\n")
	mustWrite(t, bad, h+"string(\"x\")\nint(1.5)\n")
	mustWrite(t, wrong, h+"string(\"x\")\nstring(\"y\")\n")
	types := []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[int]()}
	var seen []string
	var errs []error
	for e, err := range Files([]string{good, bad, wrong, missing, dir, good}, types) {
		if err != nil {
			errs = append(errs, err)
			seen = append(seen, "error")
			continue
		}
		seen = append(seen, e.Path)
	}
	if want := []string{good, "error", "error", "error", "error", good}; !reflect.DeepEqual(seen, want) {
		t.Errorf("yielded %q, want %q", seen, want)
	}
	checkFileErrors(t, errs, []string{
		bad + `:3: "int(1.5)": int needs an integer literal`,
		wrong + ":3: mismatched types in corpus entry: [string string], want [string int]",
		missing + ": no such file or directory",
		dir + ": is a directory",
	})
	n := 0
	for range Files([]string{good, good, good}, nil) {
		if n++; n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("Files went on after break: %d", n)
	}
}

func checkFileErrors(t *testing.T, errs []error, want []string) {
	t.Helper()
	if len(errs) != len(want) {
		t.Fatalf("%d errors %q, want %d", len(errs), errs, len(want))
	}
	for i, err := range errs {
		var fe *FileError
		if !errors.As(err, &fe) || err.Error() != want[i] {
			t.Errorf("error %d = %v (%T), want *FileError %q", i, err, err, want[i])
		}
	}
}

func TestExpandDirs(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "a"), "x")
	mustWrite(t, filepath.Join(dir, "b"), "x")
	mustWrite(t, filepath.Join(dir, "sub", "deep"), "x")
	files, errs := ExpandDirs([]string{"plain", dir, "missing"})
	want := []string{"plain", filepath.Join(dir, "a"), filepath.Join(dir, "b"), "missing"}
	if len(errs) != 0 || !reflect.DeepEqual(files, want) {
		t.Errorf("ExpandDirs = %q, %v; want %q", files, errs, want)
	}
	// A -sync directory's own files are left out of a directory go test
	// does not read; in testdata/fuzz/<name> go test reads them too.
	sync := filepath.Join(dir, "sync", "FuzzX")
	seeds := filepath.Join(dir, "testdata", "fuzz", "FuzzX")
	for _, d := range []string{sync, seeds} {
		mustWrite(t, filepath.Join(d, ".cov-1"), "x")
		mustWrite(t, filepath.Join(d, "e"), "x")
	}
	files, errs = ExpandDirs([]string{sync, seeds})
	want = []string{filepath.Join(sync, "e"), filepath.Join(seeds, ".cov-1"), filepath.Join(seeds, "e")}
	if len(errs) != 0 || !reflect.DeepEqual(files, want) {
		t.Errorf("ExpandDirs = %q, %v; want %q", files, errs, want)
	}
	// A directory of directories (testdata/fuzz for testdata/fuzz/FuzzX)
	// is an error that names one, not nothing checked.
	if files, errs := ExpandDirs([]string{filepath.Join(dir, "testdata", "fuzz")}); len(files) != 0 || len(errs) != 1 ||
		!strings.Contains(errs[0].Error(), "no files; its subdirectories are not read (name one, as "+seeds+")") {
		t.Errorf("ExpandDirs(testdata/fuzz) = %q, %v; want an error naming %s", files, errs, seeds)
	}
	if os.Getuid() == 0 {
		t.Skip("root reads unreadable directories")
	}
	locked := filepath.Join(dir, "sub")
	os.Chmod(locked, 0)
	defer os.Chmod(locked, 0o777)
	if _, errs := ExpandDirs([]string{locked}); len(errs) != 1 || !strings.Contains(errs[0].Error(), "permission denied") {
		t.Errorf("unreadable directory: %v, want a permission error", errs)
	}
}

// TestCheck: the bad files that FILE and DIR arguments name, in order, each
// a *FileError; a directory stands for its files.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	good, bad, wrong := filepath.Join(dir, "a-good"), filepath.Join(dir, "b-bad"), filepath.Join(dir, "c-wrong")
	mustWrite(t, good, h+"string(\"x\")\nint(1)\n")
	mustWrite(t, bad, h+"string(\"x\")\nint(1.5)\n")
	mustWrite(t, wrong, h+"string(\"x\")\nstring(\"y\")\n")
	missing := filepath.Join(dir, "missing")
	badErrs, dirErrs := Check([]string{good, missing, dir}, []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[int]()})
	if len(dirErrs) != 0 {
		t.Errorf("directory errors %v", dirErrs)
	}
	checkFileErrors(t, badErrs, []string{
		missing + ": no such file or directory",
		bad + `:3: "int(1.5)": int needs an integer literal`,
		wrong + ":3: mismatched types in corpus entry: [string string], want [string int]",
	})
	if badErrs, _ := Check([]string{dir}, nil); len(badErrs) != 1 {
		t.Errorf("without types: %v, want only the malformed file", badErrs)
	}
}

// TestEntryText: the readable form "fuzzbox corpus cat" prints.
func TestEntryText(t *testing.T) {
	e := Entry{Path: "p/x", Values: []any{[]byte("ab"), int8(-1)}}
	if got, want := e.Text(), "p/x:\n  0: []byte(\"ab\")  (2 bytes)\n  1: int8(-1)\n"; got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
}

// TestWriteJSON: one line per entry, as "fuzzbox corpus decode" prints it.
func TestWriteJSON(t *testing.T) {
	var b strings.Builder
	for _, e := range []Entry{{Path: "p/x", Values: []any{true}}, {Path: "p/y", Values: []any{"s"}}} {
		if err := WriteJSON(&b, e); err != nil {
			t.Fatal(err)
		}
	}
	want := `{"file":"p/x","values":[{"type":"bool","value":true}]}` + "\n" + `{"file":"p/y","values":[{"type":"string","text":"s"}]}` + "\n"
	if b.String() != want {
		t.Errorf("WriteJSON wrote %q, want %q", b.String(), want)
	}
}
