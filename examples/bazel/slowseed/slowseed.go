// Package slowseed is the Bazel example of a fuzz test with a seed that is
// slow only in the fuzzing binary: code the instrumentation makes several
// times slower, as image/gif's decoder is on its first seed (9.9 s of a
// 10-s -timeout in fuzzbox's binary, 7.9 s under go test).
package slowseed

// Sum adds b's bytes.
func Sum(b []byte) int {
	n := 0
	for _, c := range b {
		n += int(c)
	}
	return n
}
