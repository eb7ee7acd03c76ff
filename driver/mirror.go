package driver

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// mirrorPackage builds, under root, a mirror of the module path down to
// pkgDir (in the module rooted at modDir; "" when there is none) and returns
// the mirrored package directory. The package's own
// regular files are copied, and so are the directories testdata and
// testdata/fuzz (as directories whose other entries are symlinks) and the
// seed corpora in testdata/fuzz/*, so corpus files can be added without
// touching the module. Every other entry, at the package level and at each
// level from the module root down, is a symlink to the original, so a test
// reading testdata/x or ../shared/y finds it.
func mirrorPackage(pkgDir, modDir, root string) (string, error) {
	modRoot := pkgDir
	if modDir != "" {
		modRoot = modDir
	}
	rel, err := filepath.Rel(modRoot, pkgDir)
	if err != nil || strings.HasPrefix(rel, "..") {
		modRoot, rel = pkgDir, "."
	}
	src, dst := modRoot, root
	for _, elem := range strings.Split(filepath.ToSlash(rel), "/") {
		if elem == "." {
			continue
		}
		if err := linkEntries(src, dst, func(name string) bool { return name == elem }); err != nil {
			return "", err
		}
		src, dst = filepath.Join(src, elem), filepath.Join(dst, elem)
	}
	if err := copyPackageDir(src, dst); err != nil {
		return "", err
	}
	return dst, nil
}

// copyPackageDir mirrors a package directory: regular files are copied,
// testdata/ and testdata/fuzz/ are rebuilt, and the seed corpus directories
// under testdata/fuzz/ are copied; everything else is symlinked.
func copyPackageDir(src, dst string) error {
	err := linkEntries(src, dst, func(name string) bool {
		fi, err := os.Lstat(filepath.Join(src, name))
		return name == "testdata" || err == nil && fi.Mode().IsRegular()
	})
	if err != nil {
		return err
	}
	if err := copyFlat(src, dst); err != nil {
		return err
	}
	td, tdDst := filepath.Join(src, "testdata"), filepath.Join(dst, "testdata")
	if fi, err := os.Lstat(td); err != nil || !fi.IsDir() {
		return os.MkdirAll(filepath.Join(tdDst, "fuzz"), 0o777) // a symlinked testdata is not mirrored
	}
	if err := linkEntries(td, tdDst, func(name string) bool { return name == "fuzz" }); err != nil {
		return err
	}
	fuzz, fuzzDst := filepath.Join(td, "fuzz"), filepath.Join(tdDst, "fuzz")
	// The corpus directories are copied below; files beside them (a zip of
	// inputs a test reads, as klauspost/compress's) are linked.
	if err := linkEntries(fuzz, fuzzDst, func(name string) bool {
		fi, err := os.Lstat(filepath.Join(fuzz, name))
		return err == nil && fi.IsDir()
	}); err != nil {
		return err
	}
	targets, _ := os.ReadDir(fuzz)
	for _, t := range targets {
		if t.IsDir() {
			if err := copyFlat(filepath.Join(fuzz, t.Name()), filepath.Join(fuzzDst, t.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// linkEntries creates dst and symlinks into it every entry of src for
// which skip is false. A missing src yields an empty dst.
func linkEntries(src, dst string, skip func(name string) bool) error {
	if err := os.MkdirAll(dst, 0o777); err != nil {
		return err
	}
	files, err := os.ReadDir(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	for _, fi := range files {
		if skip(fi.Name()) {
			continue
		}
		if err := os.Symlink(filepath.Join(src, fi.Name()), filepath.Join(dst, fi.Name())); err != nil {
			return err
		}
	}
	return nil
}

// copyFlat copies the regular files of src (no recursion, as the testing
// package reads a corpus directory) into dst.
func copyFlat(src, dst string) error {
	if err := os.MkdirAll(dst, 0o777); err != nil {
		return err
	}
	files, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, fi := range files {
		if fi.Type().IsRegular() {
			if err := copyFile(filepath.Join(src, fi.Name()), filepath.Join(dst, fi.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o666)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
