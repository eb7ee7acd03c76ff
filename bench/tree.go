package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A treeSnapshot records which paths exist under a target's directory, so
// that restore can remove what a run added (crashers in testdata/fuzz, new
// directories). Runs never edit existing files, so contents are not kept.
type treeSnapshot struct {
	root  string
	paths map[string]bool
}

func snapshot(root string) (*treeSnapshot, error) {
	s := &treeSnapshot{root: root, paths: map[string]bool{}}
	err := filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		s.paths[p] = true
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshotting %s: %w", root, err)
	}
	return s, nil
}

// restore removes every path under root that was not there at snapshot time.
func (s *treeSnapshot) restore() error {
	var added []string
	err := filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !s.paths[p] {
			added = append(added, p)
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("restoring %s: %w", s.root, err)
	}
	for _, p := range added {
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("restoring %s: %w", s.root, err)
		}
	}
	return nil
}
