package driver

import (
	"bufio"
	"io"
)

// newLineReader returns a function that reads the next line of r, with its
// newline (added when the last line has none); lines longer than 64 MiB are
// cut.
func newLineReader(r io.Reader) func() (string, bool) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	return func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		return sc.Text() + "\n", true
	}
}
