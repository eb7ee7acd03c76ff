//go:build !linux

package engine

// reserveAddressSpace is the fake worker's reservation: Linux only.
func reserveAddressSpace() {}
