package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// Entry is one corpus file.
type Entry struct {
	Path   string // file path as read or written
	Data   []byte // the file's bytes (v1 text)
	Values []any  // decoded values
	// Lines holds the 1-based line of each value in Data (same length as
	// Values); nil for entries not read from a file.
	Lines []int
	// Typed holds, for an entry of a typed fuzz test (package typed: one
	// []byte that encodes the arguments), the arguments as Go syntax, when
	// a caller asked the test binary (driver.TypedEntries); else nil.
	Typed []string
}

// Name returns the toolchain's file name for data: the first 16 hex digits of
// its SHA-256.
func Name(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// A FileError reports a bad corpus file. Err is a *SyntaxError, a *TypeError
// or an I/O error.
type FileError struct {
	Path string
	Line int // 1-based line of the problem, 0 when not tied to a line
	Err  error
}

func (e *FileError) Error() string {
	var se *SyntaxError
	switch {
	case errors.As(e.Err, &se):
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, se.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// MalformedError lists the bad files of a directory, one *FileError each.
type MalformedError struct{ Errs []error }

// Error has one "file:line: reason" per line.
func (e *MalformedError) Error() string {
	msgs := make([]string, len(e.Errs))
	for i, err := range e.Errs {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap returns the individual file errors.
func (e *MalformedError) Unwrap() []error { return e.Errs }

// ReadFile reads and decodes one corpus file; if types is non-nil it also
// checks the values with CheckTypes. A malformed file yields a *FileError
// together with the entry's Path and Data.
func ReadFile(path string, types []reflect.Type) (Entry, error) {
	e := Entry{Path: path}
	data, err := readLimited(path)
	if err != nil {
		return e, err
	}
	e.Data = data
	vals, lines, err := unmarshal(data)
	if err != nil {
		var se *SyntaxError
		errors.As(err, &se)
		return e, &FileError{Path: path, Line: se.Line, Err: err}
	}
	e.Values, e.Lines = vals, lines
	if types != nil {
		if err := CheckTypes(vals, types); err != nil {
			return e, &FileError{Path: path, Line: typeErrorLine(err, lines), Err: err}
		}
	}
	return e, nil
}

// readLimited reads a file, refusing (without reading) one larger than
// MaxFileSize, which is reported as a *FileError.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := &FileError{Path: path, Line: 1, Err: &SyntaxError{1, fmt.Sprintf("file larger than %d bytes", MaxFileSize)}}
	if fi, err := f.Stat(); err == nil && fi.Size() > MaxFileSize {
		return nil, tooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, tooLarge // it grew while read
	}
	return data, nil
}

// ReadDir reads every regular file of dir (no recursion, like the toolchain),
// in name order. A missing dir is not an error (it returns nil, nil), nor is
// a file removed after dir was listed (another process pruning or renaming
// entries: fuzzbox's baseline prunes its cache, and two runs of one package
// share it): it is skipped. Malformed files are skipped and reported
// together in a *MalformedError; the entries of the good files are still
// returned. If types is non-nil each entry is also checked with CheckTypes.
// Any other I/O error stops the read (a dangling symbolic link among them,
// as go test stops at it).
func ReadDir(dir string, types []reflect.Type) ([]Entry, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("corpus: reading %s: %w", dir, err)
	}
	var names []string
	for _, ent := range ents {
		if !ent.IsDir() {
			names = append(names, ent.Name())
		}
	}
	return readFiles(dir, names, types)
}

// readFiles reads the files names of dir, which were listed there, as
// ReadDir does.
func readFiles(dir string, names []string, types []reflect.Type) ([]Entry, error) {
	var entries []Entry
	var bad []error
	for _, name := range names {
		path := filepath.Join(dir, name)
		e, err := ReadFile(path, types)
		var fe *FileError
		switch {
		case errors.Is(err, os.ErrNotExist) && removed(path):
			continue
		case errors.As(err, &fe):
			bad = append(bad, fe)
		case err != nil:
			return nil, fmt.Errorf("corpus: reading %s: %w", dir, err)
		default:
			entries = append(entries, e)
		}
	}
	if len(bad) > 0 {
		return entries, &MalformedError{Errs: bad}
	}
	return entries, nil
}

// removed reports whether path, which ReadDir listed, is no longer there
// (not even as a dangling symbolic link).
func removed(path string) bool {
	_, err := os.Lstat(path)
	return errors.Is(err, os.ErrNotExist)
}

// Write writes data as an entry of dir (created if missing) named Name(data),
// atomically, so a kill at any moment never leaves a truncated entry: the
// bytes go to a file in a fresh temporary subdirectory of dir (same file
// system), are synced, and the file is renamed into place. The toolchain
// reads every file of dir (not only hash-named ones) but skips directories,
// so even a leftover ".tmp-*" directory from a killed write is never read as
// an entry. An existing entry is left untouched. Write returns the path
// written or already present. Files get mode 0644.
func Write(dir string, data []byte) (string, error) {
	path, there := entryPath(dir, data)
	if there {
		return path, nil
	}
	if err := writeAtomic(dir, path, data); err != nil {
		return "", fmt.Errorf("corpus: write %s: %w", path, err)
	}
	return path, nil
}

// entryPath returns the path of data's entry in dir and whether something
// is there already.
func entryPath(dir string, data []byte) (string, bool) {
	path := filepath.Join(dir, Name(data))
	_, err := os.Lstat(path)
	return path, err == nil
}

func writeAtomic(dir, path string, data []byte) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	tmpDir, err := os.MkdirTemp(dir, ".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmpDir)
	if err := writeInto(tmpDir, path, data, true); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// writeInto writes data to a file of tmpDir named as path, syncing it when
// sync is set, and renames it to path.
func writeInto(tmpDir, path string, data []byte, sync bool) error {
	tmp := filepath.Join(tmpDir, filepath.Base(path))
	if err := writeFile(tmp, data, sync); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

func writeFile(name string, data []byte, sync bool) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		// No partial file: a retry of the same entry (O_EXCL) failed on
		// it with "file exists" (a full sync directory).
		os.Remove(name)
	}
	return err
}

// syncDir makes a rename durable where the platform allows it; failure is
// harmless (the entry is complete either way), so it is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
