//go:build !linux

package engine

// reserveAddressSpace is the fake worker's reservation: Linux only.
func reserveAddressSpace() {}

// grownBytes is the fake "grow" mode's step: n bytes, touched.
func grownBytes(n int) []byte {
	m := make([]byte, n)
	for i := 0; i < len(m); i += 4096 {
		m[i] = 1
	}
	return m
}
