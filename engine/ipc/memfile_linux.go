package ipc

import (
	"os"
	"syscall"
	"unsafe"
)

// memFile returns the file behind a new region: on Linux an anonymous
// memory file (memfd_create), which no file system holds, so a full or
// small TMPDIR (a tmpfs /tmp) cannot make a write to the region fault
// (SIGBUS: the coordinator died in CreateMem, called a fuzzbox bug, and a
// bug being confirmed was lost). Where the call is refused (a seccomp
// filter, an old kernel), a temporary file, as elsewhere.
func memFile() (*os.File, error) {
	if sysMemfdCreate == 0 {
		return tempMemFile()
	}
	name := []byte("fuzzbox-mem\x00")
	const mfdCloexec = 1
	fd, _, errno := syscall.Syscall(sysMemfdCreate, uintptr(unsafe.Pointer(&name[0])), mfdCloexec, 0)
	if errno != 0 {
		return tempMemFile()
	}
	return os.NewFile(fd, "fuzzbox-mem"), nil
}
