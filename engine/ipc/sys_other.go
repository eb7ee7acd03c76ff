//go:build !unix

package ipc

import (
	"errors"
	"os"
)

var errUnsupported = errors.New("ipc: shared memory is not implemented on this platform")

func mmap(f *os.File, size int) ([]byte, error) { return nil, errUnsupported }

func munmap(b []byte) error { return errUnsupported }

func closeOnExec(fd uintptr) {}

func moveHigh(fd uintptr) (uintptr, error) { return fd, errUnsupported }
