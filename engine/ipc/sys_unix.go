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

// moveHigh duplicates fd to the lowest free descriptor at or above
// highFD, close-on-exec, and closes fd.
func moveHigh(fd uintptr) (uintptr, error) {
	nfd, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_DUPFD_CLOEXEC, highFD)
	if errno != 0 {
		return fd, errno
	}
	syscall.Close(int(fd))
	return nfd, nil
}
