package corpus

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestImportExportRaw: raw files (recursively) become one-value entries of
// either type, and ExportRaw writes their bytes back under the entry names.
func TestImportExportRaw(t *testing.T) {
	raw := t.TempDir()
	files := map[string]string{"a": "\x00\xff\xfe", "b": "plain text", "sub/c": ""}
	for name, data := range files {
		mustWrite(t, filepath.Join(raw, name), data)
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[[]byte](), reflect.TypeFor[string]()} {
		dir, back := filepath.Join(t.TempDir(), "FuzzX"), t.TempDir()
		if errs := ImportRaw([]string{raw}, dir, typ); errs != nil {
			t.Fatalf("ImportRaw %v: %v", typ, errs)
		}
		ents, err := ReadDir(dir, []reflect.Type{typ})
		if err != nil || len(ents) != len(files) {
			t.Fatalf("ImportRaw %v wrote %d entries (%v), want %d", typ, len(ents), err, len(files))
		}
		got := map[string]bool{}
		for _, e := range ents {
			if err := ExportRaw(e, back); err != nil {
				t.Fatalf("ExportRaw: %v", err)
			}
			data, err := os.ReadFile(filepath.Join(back, filepath.Base(e.Path)))
			if err != nil {
				t.Fatal(err)
			}
			got[string(data)] = true
		}
		for name, data := range files {
			if !got[data] {
				t.Errorf("%v: %s did not come back from ImportRaw and ExportRaw", typ, name)
			}
		}
	}
}

func TestImportExportRawErrors(t *testing.T) {
	raw := t.TempDir()
	mustWrite(t, filepath.Join(raw, "a"), "x")
	missing := filepath.Join(raw, "missing")
	errs := ImportRaw([]string{missing, raw, missing + "2"}, t.TempDir(), reflect.TypeFor[[]byte]())
	if len(errs) != 2 || errs[0].Error() != missing+": no such file or directory" || errs[1].Error() != missing+"2: no such file or directory" {
		t.Errorf("ImportRaw with missing roots: %q", errs)
	}
	if errs := ImportRaw([]string{raw}, t.TempDir(), reflect.TypeFor[int]()); len(errs) != 1 || !strings.Contains(errs[0].Error(), "not []byte or string") {
		t.Errorf("ImportRaw as int: %v", errs)
	}
	missingDir := filepath.Join(t.TempDir(), "missing")
	for _, tc := range []struct {
		vals []any
		dir  string
		want string
	}{
		{[]any{"a", "b"}, t.TempDir(), "dir/e1: has 2 values, export needs exactly one []byte or string"},
		{[]any{7}, t.TempDir(), "dir/e1: holds a value of type int, export needs []byte or string"},
		{[]any{"a"}, missingDir, filepath.Join(missingDir, "e1") + ": no such file or directory"},
	} {
		err := ExportRaw(Entry{Path: "dir/e1", Values: tc.vals}, tc.dir)
		if fe, ok := err.(*FileError); !ok || fe.Error() != tc.want {
			t.Errorf("ExportRaw(%v) = %v, want a *FileError %q", tc.vals, err, tc.want)
		}
	}
	if err := ExportLibFuzzer(Entry{Path: "dir/e1", Values: []any{1}}, missingDir); err == nil || err.Error() != filepath.Join(missingDir, "e1")+": no such file or directory" {
		t.Errorf("ExportLibFuzzer to a missing directory: %v", err)
	}
}

// TestLibFuzzerFiles: ExportLibFuzzer then ImportLibFuzzer gives back the
// same v1 file, byte for byte, under its content name.
func TestLibFuzzerFiles(t *testing.T) {
	entry := h + "string(\"\\x00é\")\nuint16(65535)\n[]byte(\"x\")\nfloat32(-0)\nbool(true)\n"
	vals, err := Unmarshal([]byte(entry))
	if err != nil {
		t.Fatal(err)
	}
	lf, back := t.TempDir(), t.TempDir()
	if err := ExportLibFuzzer(Entry{Path: "seeds/e1", Values: vals}, lf); err != nil {
		t.Fatalf("ExportLibFuzzer: %v", err)
	}
	types, _ := ParseTypes("string,uint16,[]byte,float32,bool")
	path, err := ImportLibFuzzer(filepath.Join(lf, "e1"), types, back)
	if err != nil || path != filepath.Join(back, Name([]byte(entry))) {
		t.Fatalf("ImportLibFuzzer = %q, %v", path, err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != entry {
		t.Errorf("round trip: %q, %v; want %q", got, err, entry)
	}
	missing := filepath.Join(lf, "missing")
	if _, err := ImportLibFuzzer(missing, types, back); err == nil || !strings.HasPrefix(err.Error(), missing+": ") {
		t.Errorf("ImportLibFuzzer of a missing file: %v, want an error starting with its path", err)
	}
}

// TestExport: the entries of files and directories, raw or as libFuzzer
// inputs; a bad file is a *FileError and the others are still written.
func TestExport(t *testing.T) {
	src := t.TempDir()
	mustWrite(t, filepath.Join(src, "a"), h+"[]byte(\"one\")\n")
	mustWrite(t, filepath.Join(src, "b"), h+"string(\"two\")\nint(2)\n")
	single := filepath.Join(t.TempDir(), "c")
	mustWrite(t, single, h+"string(\"three\")\n")
	raw := t.TempDir()
	errs := Export([]string{src, single}, raw, false)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "has 2 values, export needs exactly one") {
		t.Errorf("Export raw: %v, want one error for the two-value entry", errs)
	}
	for name, want := range map[string]string{"a": "one", "c": "three"} {
		if data, err := os.ReadFile(filepath.Join(raw, name)); err != nil || string(data) != want {
			t.Errorf("raw %s = %q, %v; want %q", name, data, err, want)
		}
	}
	lf := t.TempDir()
	if errs := Export([]string{src}, lf, true); len(errs) != 0 {
		t.Errorf("Export -to-libfuzzer: %v", errs)
	}
	if ents, _ := os.ReadDir(lf); len(ents) != 2 {
		t.Errorf("libFuzzer inputs %v, want 2", ents)
	}
}
