package ipc

// sysMemfdCreate is memfd_create's system call number (the syscall
// package lacks it).
const sysMemfdCreate = 319
