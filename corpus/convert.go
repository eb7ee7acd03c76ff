package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
)

// Conversions between entries and the files of other tools: raw inputs (the
// bytes of a single []byte or string argument) and libFuzzer inputs (the
// LibFuzzerEncoding, of which a raw input is the one-argument case).
// "fuzzbox corpus import" and "export" (Export) and Merge use them.

// ImportRaw writes each regular file under the roots (recursively) into
// dir (Write) as an entry of one value of type t, []byte or string, holding
// the file's bytes. It returns one *FileError per root it could not import
// completely: a root's walk stops at its first error.
func ImportRaw(roots []string, dir string, t reflect.Type) []error {
	var errs []error
	for _, root := range roots {
		if err := importRaw(root, dir, t); err != nil {
			errs = append(errs, asFileError(root, err))
		}
	}
	return errs
}

func importRaw(root, dir string, t reflect.Type) error {
	if !isBytesKind(t) {
		return fmt.Errorf("corpus: import: type %v is not []byte or string", t)
	}
	return walkFiles(root, false, func(p string) error {
		_, err := importFile(p, []reflect.Type{t}, dir)
		return err
	})
}

// ImportLibFuzzer writes the libFuzzer input file, decoded for the fuzz
// test's argument types (DecodeLibFuzzer), into dir (Write) and returns the
// entry's path. Its error starts with file.
func ImportLibFuzzer(file string, types []reflect.Type, dir string) (string, error) {
	path, err := importFile(file, types, dir)
	if err != nil {
		return "", fmt.Errorf("%s: %w", file, err)
	}
	return path, nil
}

// importFile writes the entry of the libFuzzer input file into dir.
func importFile(file string, types []reflect.Type, dir string) (string, error) {
	data, err := libFuzzerEntry(file, types)
	if err != nil {
		return "", err
	}
	return Write(dir, data)
}

// libFuzzerEntry returns the v1 file of the libFuzzer input file.
func libFuzzerEntry(file string, types []reflect.Type) ([]byte, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	vals, err := DecodeLibFuzzer(raw, types)
	if err != nil {
		return nil, err
	}
	return Marshal(vals...)
}

// Export writes the entries that args name — files, and directories
// standing for the files in them, as Check reads them — into dir, as
// "fuzzbox corpus export" does: each as its raw bytes (ExportRaw), or with
// libFuzzer as a libFuzzer input (ExportLibFuzzer). It returns the error of
// each directory it could not read, then the *FileError of each file it
// could not read or export, in order.
func Export(args []string, dir string, libFuzzer bool) []error {
	export := ExportRaw
	if libFuzzer {
		export = ExportLibFuzzer
	}
	files, errs := ExpandDirs(args)
	for e, err := range Files(files, nil) {
		if err == nil {
			err = export(e, dir)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// ExportRaw writes the contents of e, an entry of exactly one []byte or
// string value, to the file of e's base name in dir. Its error is a
// *FileError.
func ExportRaw(e Entry, dir string) error {
	if len(e.Values) != 1 {
		return &FileError{Path: e.Path, Err: fmt.Errorf("has %d values, export needs exactly one []byte or string", len(e.Values))}
	}
	if !isBytesKind(reflect.TypeOf(e.Values[0])) {
		return &FileError{Path: e.Path, Err: fmt.Errorf("holds a value of type %T, export needs []byte or string", e.Values[0])}
	}
	return ExportLibFuzzer(e, dir)
}

// ExportLibFuzzer writes e as a libFuzzer input (EncodeLibFuzzer) to the
// file of e's base name in dir. Its error is a *FileError.
func ExportLibFuzzer(e Entry, dir string) error {
	raw, err := EncodeLibFuzzer(e.Values)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, filepath.Base(e.Path)), raw, 0o666)
	}
	if err != nil {
		return asFileError(e.Path, err)
	}
	return nil
}
