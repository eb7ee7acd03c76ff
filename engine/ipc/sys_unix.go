//go:build unix

package ipc

import (
	"os"
	"syscall"
)

func mmap(f *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}

func munmap(b []byte) error { return syscall.Munmap(b) }

func closeOnExec(fd uintptr) { syscall.CloseOnExec(int(fd)) }
