// Package server is a toy file server with a planted bug, fuzzed with typed
// arguments (package typed): a Config and a sequence of operations instead
// of bytes decoded by hand.
//
//	cd examples/typed && go run github.com/fuzzbox/fuzzbox/cmd/fuzzbox fuzz -fuzz=. ./...
//
// finds the bug (a TLS server closing a file of 1,024 bytes or more), writes
// a reproducer to testdata/fuzz/FuzzApply/ and prints the failing
// arguments as Go syntax; stock "go test -run=FuzzApply/<name>" replays it.
package server

import (
	"errors"
	"fmt"
	"strings"
)

// OpKind is what an operation does.
type OpKind uint8

const (
	OpOpen OpKind = iota + 1
	OpWrite
	OpClose
)

// Config configures a server.
type Config struct {
	Port  uint16
	Mode  string         // "plain" or "tls"
	Quota map[string]int // bytes per path; no entry: no limit
}

// Op is one request.
type Op struct {
	Kind OpKind
	Path string
	Size int32 // bytes to write
}

// Server holds open files.
type Server struct {
	cfg  Config
	open map[string][]byte
}

// New returns a server with c's configuration.
func New(c Config) *Server { return &Server{cfg: c, open: map[string][]byte{}} }

// Apply performs op.
func (s *Server) Apply(op Op) error {
	if !strings.HasPrefix(op.Path, "/") {
		return fmt.Errorf("path %q is not absolute", op.Path)
	}
	switch op.Kind {
	case OpOpen:
		s.open[op.Path] = []byte{}
	case OpWrite:
		buf, ok := s.open[op.Path]
		if !ok {
			return errors.New("write to a file that is not open")
		}
		if op.Size < 0 || op.Size > 1<<16 {
			return fmt.Errorf("write size %d out of range", op.Size)
		}
		if q, ok := s.cfg.Quota[op.Path]; ok && len(buf)+int(op.Size) > q {
			return errors.New("quota exceeded")
		}
		s.open[op.Path] = append(buf, make([]byte, op.Size)...)
	case OpClose:
		buf, ok := s.open[op.Path]
		if !ok {
			return errors.New("close of a file that is not open")
		}
		delete(s.open, op.Path)
		if s.cfg.Mode == "tls" {
			return seal(buf)
		}
	default:
		return fmt.Errorf("unknown operation %d", op.Kind)
	}
	return nil
}

// seal frames a closed file's contents as TLS records.
func seal(buf []byte) error {
	var frame [1024]byte
	n := copy(frame[:], buf)
	frame[n] = 0x17 // the planted bug: a full frame has no room for the trailer
	return nil
}
