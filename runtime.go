// Package fuzzbox carries the source of fuzzbox's runtime packages: the code
// linked into every fuzzing binary (engine, engine/fuzzmain, engine/ipc,
// engine/instrument, corpus and event, all standard-library-only) and
// package typed, which typed fuzz tests import (with internal/typedhook and
// internal/stdlib).
//
// A user's module does not depend on fuzzbox, so "fuzzbox fuzz" cannot import
// these packages from the module cache. Instead the fuzzbox binary embeds their
// source and driver/build writes it out as a module of its own that the user's
// build is pointed at (a go.mod "replace"). driver/build is the only user of
// this package; nothing linked into a fuzz target imports it.
package fuzzbox

import (
	"crypto/sha256"
	"embed"
	"encoding/binary"
	"encoding/hex"
	"io/fs"
	"strings"
	"sync"
)

// runtimeFiles holds the runtime packages' .go files. The patterns match
// *_test.go files too; RuntimeHash and the extraction in driver/build skip them.
//
//go:embed engine/*.go engine/fuzzmain/*.go engine/basedeps/*.go engine/ipc/*.go engine/instrument/*.go engine/libfuzzer/*.go corpus/*.go event/*.go typed/*.go internal/typedhook/*.go internal/stdlib/*.go
var runtimeFiles embed.FS

// RuntimeFS returns the embedded runtime source, with paths relative to the
// module root ("engine/fuzzmain/fuzzmain.go"). It includes *_test.go files,
// which are not part of the runtime: callers skip them (IsRuntimeFile).
func RuntimeFS() fs.FS { return runtimeFiles }

// IsRuntimeFile reports whether name, a path in RuntimeFS, is part of the
// runtime source: a .go file that is not a test file.
func IsRuntimeFile(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}

// RuntimeHash returns the hex SHA-256 of the runtime source: the names and
// contents of the files IsRuntimeFile accepts, in lexical order. It names the
// extracted copy and is part of the fuzzing build's cache key.
func RuntimeHash() string { return runtimeHash() }

var runtimeHash = sync.OnceValue(func() string {
	h := sha256.New()
	err := fs.WalkDir(runtimeFiles, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !IsRuntimeFile(name) {
			return err
		}
		data, err := runtimeFiles.ReadFile(name)
		if err != nil {
			return err
		}
		// Names cannot contain NUL and the data is length-prefixed, so no
		// two file sets hash alike.
		h.Write([]byte(name))
		h.Write([]byte{0})
		h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(data))))
		h.Write(data)
		return nil
	})
	if err != nil {
		// The embedded FS is read-only memory; a walk error is a bug.
		panic("fuzzbox: walking embedded runtime source: " + err.Error())
	}
	return hex.EncodeToString(h.Sum(nil))
})
