package corpus

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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
// reads a corpus directory). In a directory go test does not read as a seed
// corpus (one not at testdata/fuzz/<name>: a -sync directory, a cache, a
// download), names that start with a dot are left out, as Merge leaves them
// out: they are a fuzzbox sync directory's own (.peer-*, .cov-*) or a
// tool's; in testdata/fuzz/<name> go test reads them, so they are listed.
// It returns the error of each directory that could not be read, with the
// files listed before the error, and of one that holds directories but no
// files (testdata/fuzz, given for testdata/fuzz/FuzzX).
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
		seeds := seedCorpusDir(p)
		found, sub := false, ""
		for _, e := range ents {
			switch {
			case e.IsDir():
				sub = cmp.Or(sub, e.Name())
			case seeds || !strings.HasPrefix(e.Name(), "."):
				files = append(files, filepath.Join(p, e.Name()))
				found = true
			}
		}
		if !found && sub != "" && err == nil {
			// testdata/fuzz for testdata/fuzz/FuzzX: it checked nothing, silently.
			errs = append(errs, fmt.Errorf("%s: no files; its subdirectories are not read (name one, as %s)", p, filepath.Join(p, sub)))
		}
	}
	return files, errs
}

// seedCorpusDir reports whether go test reads dir as a fuzz test's seed
// corpus: testdata/fuzz/<name> below the package's directory.
func seedCorpusDir(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return true
	}
	fuzz := filepath.Dir(abs)
	return filepath.Base(fuzz) == "fuzz" && filepath.Base(filepath.Dir(fuzz)) == "testdata"
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

// walkFiles calls fn on each regular file under root (on root itself when
// it is one), skipping names that start with a dot when dots is set (and
// the directories they name). A symbolic link given as root is followed,
// as cp -r and find -H follow one named on the command line (a link to
// nothing is an error, as a missing root is). Below root, a link to a
// directory is not followed (as cp -r: no cycles), and fn gets every other
// link, as go test reads a corpus directory's linked files: a link to
// nothing is then fn's error to report, not skipped without a word.
// fn's error stops the walk and is returned.
func walkFiles(root string, dots bool, fn func(path string) error) error {
	info, err := os.Stat(root)
	switch {
	case err != nil:
		return err // a missing root, or a link to nothing
	case info.Mode().IsRegular():
		return fn(root)
	case info.IsDir():
		// A trailing separator makes WalkDir's Lstat of root follow a
		// link; the paths it yields are cleaned of it.
		root = filepath.Clean(root) + string(filepath.Separator)
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case dots && p != root && strings.HasPrefix(d.Name(), "."):
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			if info, err := os.Stat(p); err == nil && !info.Mode().IsRegular() {
				return nil // a directory's (or a device's)
			}
		case !d.Type().IsRegular():
			return nil
		}
		return fn(p)
	})
}
