// Package easy is the benchmark's control target: a script-header parser whose
// planted bug both engines should find within seconds.
//
// Bug: a header starting with "#!" followed by "!" (an "interpreter" line with
// a bang flag) reaches an unfinished code path and panics. Each byte of the
// trigger is its own branch, so plain coverage guidance (go test -fuzz) climbs
// to it byte by byte; this target exists so that the benchmark has bugs both
// engines find, and therefore a time-to-failure ratio with data.
package easy

import (
	"bytes"
	"errors"
)

// A Header is the first line of a script.
type Header struct {
	Interpreter string // the program after "#!", or "" for a comment line
	Comment     string // the text after "#", or "" for an interpreter line
}

var errNoHeader = errors.New("easy: no header line")

// ParseHeader reads the first line of a script.
func ParseHeader(b []byte) (Header, error) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	if len(line) < 2 || line[0] != '#' {
		return Header{}, errNoHeader
	}
	if line[1] != '!' {
		return Header{Comment: string(bytes.TrimSpace(line[1:]))}, nil
	}
	rest := line[2:]
	if len(rest) > 0 && rest[0] == '!' {
		panic("BUG easy: interpreter line with bang flag")
	}
	return Header{Interpreter: string(bytes.TrimSpace(rest))}, nil
}
