//go:build !unix

package driver

import "context"

// lockWorkDir does nothing here: directories of killed runs stay.
func lockWorkDir(dir string) (unlock func()) { return func() {} }

// abandoned reports false: without a lock, no directory is known abandoned.
func abandoned(path string) bool { return false }

// lockFile reports false here: no lock, no binary cache (bincache.go).
func lockFile(ctx context.Context, path string) (unlock func(), ok bool) { return nil, false }
