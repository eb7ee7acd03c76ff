package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A Batch writes entries as Write does, atomically and under their content's
// names, without waiting for the disk after each one: Flush syncs the files
// written since the last Flush, then their directories. Write syncs each
// file and its directory and makes and removes a temporary directory for
// each entry (BenchmarkWrite: 1.2 ms per entry on the benchmark machine's
// virtual disk, BenchmarkBatchWrite 0.9 ms); a fuzzing run writes hundreds
// of entries a second at the start of a text parser's run, to its cache and,
// when it syncs with other instances, to the sync directory too, where the
// syncs cost two instances' workers a quarter of their speed
// (bench/README.md, "Corpus sync"). The
// engine writes the generated corpus and the sync directory's entries
// through a Batch, and reproducers through Write.
//
// A kill at any moment leaves no truncated entry, as with Write: a file is
// renamed into place once complete. Only a crash of the machine itself can
// lose the entries written since the last Flush.
//
// The zero Batch is ready to use. A Batch is not safe for concurrent use.
type Batch struct {
	tmp     map[string]string // directory → its temporary subdirectory
	written []string          // files renamed or linked into place since the last Flush
	noLink  map[string]bool   // directories Link could not link into
}

// Write writes data as an entry of dir (created if missing) named
// Name(data), unless that entry is there, and returns its path. The bytes go
// to a file of a temporary subdirectory of dir (".tmp-*": the toolchain
// skips directories), which the Batch keeps for the next writes until Flush.
func (b *Batch) Write(dir string, data []byte) (string, error) {
	path, there := entryPath(dir, data)
	if there {
		return path, nil
	}
	if err := b.write(dir, path, data); err != nil {
		return "", fmt.Errorf("corpus: write %s: %w", path, err)
	}
	b.written = append(b.written, path)
	return path, nil
}

// Link makes src, a file of another directory that holds the entry data
// under its name Name(data), an entry of dir as Write would, and returns
// its path: by a hard link where the file system allows one, by Write
// otherwise (another file system, one without hard links, a link refused,
// src misnamed or gone). A link is one small change of dir where a new
// file is a new inode (0.3 ms of CPU each on a virtual machine's ext4;
// bench/README.md, "Corpus sync"): the engine links the entries it imports
// from a sync directory into its cache. The entry then shares src's file,
// which nobody changes: entries are written once, renamed into place.
func (b *Batch) Link(dir, src string, data []byte) (string, error) {
	path, there := entryPath(dir, data)
	if there {
		return path, nil
	}
	if filepath.Base(src) == Name(data) && !b.noLink[dir] {
		err := os.Link(src, path)
		if errors.Is(err, fs.ErrNotExist) && os.MkdirAll(dir, 0o777) == nil {
			err = os.Link(src, path) // dir was missing, or src is
		}
		switch {
		case err == nil:
			b.written = append(b.written, path)
			return path, nil
		case errors.Is(err, fs.ErrExist):
			return path, nil
		case !errors.Is(err, fs.ErrNotExist): // src gone: written from data
			if b.noLink == nil {
				b.noLink = map[string]bool{}
			}
			b.noLink[dir] = true
		}
	}
	return b.Write(dir, data)
}

// write writes path through dir's temporary subdirectory, making it (and
// dir) when it is missing: the first time, or after someone removed dir.
func (b *Batch) write(dir, path string, data []byte) error {
	tmp := b.tmp[dir]
	if tmp != "" {
		err := writeInto(tmp, path, data, false)
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, ".tmp-")
	if err != nil {
		return err
	}
	if b.tmp == nil {
		b.tmp = map[string]string{}
	}
	b.tmp[dir] = tmp
	return writeInto(tmp, path, data, false)
}

// Flush syncs the files written since the last Flush and their
// directories, and removes the batch's temporary subdirectories (the next
// write makes one again), so that a kill leaves one behind only when it
// comes within a Flush interval of a write. It returns the first error of a
// file that is there and could not be synced; a file removed since (its
// directory removed by someone else) is no error.
func (b *Batch) Flush() error {
	var first error
	for _, path := range b.written {
		if err := syncFile(path); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
			first = fmt.Errorf("corpus: sync %s: %w", path, err)
		}
	}
	var dirs []string
	for _, path := range b.written {
		if dir := filepath.Dir(path); !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
			syncDir(dir)
		}
	}
	for dir, tmp := range b.tmp {
		os.RemoveAll(tmp)
		delete(b.tmp, dir)
	}
	b.written = b.written[:0]
	return first
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// RemoveStale removes the temporary subdirectories (".tmp-*") of dir that
// Write and Batch left more than age ago, and reports how many it removed:
// a process killed while it wrote leaves its own behind (a Batch keeps one
// between flushes), which nothing else removes. Younger ones may be another
// process's, writing now.
func RemoveStale(dir string, age time.Duration) int {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), ".tmp-") {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > age && os.RemoveAll(filepath.Join(dir, e.Name())) == nil {
			n++
		}
	}
	return n
}
