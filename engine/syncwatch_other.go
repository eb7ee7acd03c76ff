//go:build !linux

package engine

import "sync/atomic"

// Elsewhere the syncer only scans the directory (engine/syncwatch_linux.go).

// dirWatch is never made here.
type dirWatch struct {
	names chan string
	lost  atomic.Bool
}

// watchDir cannot watch here.
func watchDir(string) *dirWatch { return nil }

func (w *dirWatch) close() {}
