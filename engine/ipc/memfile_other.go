//go:build !linux

package ipc

import "os"

// memFile returns the file behind a new region: a temporary file.
func memFile() (*os.File, error) { return tempMemFile() }
