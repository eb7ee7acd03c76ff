package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
)

// Merge copies the corpus files under srcs (recursively) into dest, a
// fuzz test's corpus directory: the corpora of several machines, shards or
// cloud runs become one ("fuzzbox corpus merge", which then prunes dest).
// Entries are content-addressed (Write), so a file whose entry dest already
// holds is counted in present and not written again. Each file is read with
// ReadFile and checked against types when types is non-nil; with libFuzzer,
// the files are libFuzzer inputs decoded for types (DecodeLibFuzzer) instead.
// Merge returns the counts and one error per file that could not be read,
// converted or written ("path: reason") or source that could not be walked.
// Below a source, names that start with a dot are skipped: they are no
// inputs but a fuzzbox sync directory's own (an instance's .peer-* and
// .cov-* files, a killed write's .tmp-* directory) or a tool's.
func Merge(dest string, srcs []string, types []reflect.Type, libFuzzer bool) (added, present int, errs []error) {
	m := merger{dest: dest, types: types, libFuzzer: libFuzzer}
	for _, root := range srcs {
		err := walkFiles(root, true, func(p string) error {
			if err := m.copyFile(p); err != nil {
				m.errs = append(m.errs, fmt.Errorf("%s: %w", p, err))
			}
			return nil
		})
		if err != nil {
			m.errs = append(m.errs, err)
		}
	}
	return m.added, m.present, m.errs
}

// A merger is the state of one Merge.
type merger struct {
	dest           string
	types          []reflect.Type
	libFuzzer      bool
	added, present int
	errs           []error
}

func (m *merger) copyFile(p string) error {
	data, err := m.entryData(p)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(m.dest, Name(data))); err == nil {
		m.present++
		return nil
	}
	if _, err := Write(m.dest, data); err != nil {
		return err
	}
	m.added++
	return nil
}

// entryData returns the v1 file for the corpus file p.
func (m *merger) entryData(p string) ([]byte, error) {
	if m.libFuzzer {
		return libFuzzerEntry(p, m.types)
	}
	e, err := ReadFile(p, m.types)
	return e.Data, err
}
