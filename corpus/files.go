package corpus

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
)

// Working through the corpus files a user names: "fuzzbox corpus" reads its
// FILE and DIR arguments with EachFile and ExpandDirs.

// EachFile reads each corpus file of paths with ReadFile (so checked against
// types when types is non-nil) and calls fn, if not nil, with each good
// entry. It returns one *FileError ("path[:line]: reason") per file that
// could not be read or that fn failed on, in the order of paths.
func EachFile(paths []string, types []reflect.Type, fn func(Entry) error) []error {
	var errs []error
	for _, p := range paths {
		e, err := ReadFile(p, types)
		if err == nil && fn != nil {
			err = fn(e)
		}
		if err != nil {
			errs = append(errs, asFileError(p, err))
		}
	}
	return errs
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
