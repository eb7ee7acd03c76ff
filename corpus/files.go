package corpus

import (
	"errors"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"reflect"
)

// Working through the corpus files a user names: "fuzzbox corpus" reads its
// FILE and DIR arguments with Files and ExpandDirs, and checks them with
// Check.

// Files yields, in the order of paths, the entry of each corpus file read
// with ReadFile (so checked against types when types is non-nil), or the
// *FileError ("path[:line]: reason") of a file that could not be read.
func Files(paths []string, types []reflect.Type) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for _, p := range paths {
			e, err := ReadFile(p, types)
			if err != nil {
				err = asFileError(p, err)
			}
			if !yield(e, err) {
				return
			}
		}
	}
}

// ExpandDirs returns paths with each directory replaced by the entries in
// it that are not directories (without recursion, the way the toolchain
// reads a corpus directory). It returns the error of each directory that
// could not be read, with the files listed before the error.
func ExpandDirs(paths []string) ([]string, []error) {
	var files []string
	var errs []error
	for _, p := range paths {
		if info, err := os.Stat(p); err != nil || !info.IsDir() {
			files = append(files, p)
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			errs = append(errs, err)
		}
		for _, e := range ents {
			if !e.IsDir() {
				files = append(files, filepath.Join(p, e.Name()))
			}
		}
	}
	return files, errs
}

// Check reads the corpus files that args name, as "fuzzbox corpus check"
// does: a directory stands for the files in it (ExpandDirs). With types
// non-nil, the values are also checked against them (ReadFile). It returns
// the *FileError of each bad file, in order, and the error of each directory
// it could not read.
func Check(args []string, types []reflect.Type) (bad, dirErrs []error) {
	files, dirErrs := ExpandDirs(args)
	for _, err := range Files(files, types) {
		if err != nil {
			bad = append(bad, err)
		}
	}
	return bad, dirErrs
}

// asFileError returns err, an error about the file path, as a *FileError: a
// *FileError it wraps, an *fs.PathError's path and reason, or path and err.
func asFileError(path string, err error) *FileError {
	var fe *FileError
	if errors.As(err, &fe) {
		return fe
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &FileError{Path: pe.Path, Err: pe.Err}
	}
	return &FileError{Path: path, Err: err}
}
