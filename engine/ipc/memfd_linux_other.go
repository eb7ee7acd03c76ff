//go:build linux && !amd64 && !arm64

package ipc

// sysMemfdCreate is 0 where its number is not listed here: regions are
// temporary files.
const sysMemfdCreate = 0
