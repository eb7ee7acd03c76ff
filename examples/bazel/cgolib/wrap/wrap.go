// Package wrap reads records through cgolib, a dependency that uses cgo:
// its fuzz test finds the bug only because instrument_deps instruments
// cgolib's Go code, whose checksum comparison then guides the engine.
package wrap

import (
	"fmt"

	"example.com/fuzzbox-bazel-example/cgolib"
)

// Body returns a valid record's body as a string.
func Body(rec []byte) (string, error) {
	body, err := cgolib.Check(rec)
	if err != nil {
		return "", fmt.Errorf("record: %w", err)
	}
	return string(body), nil
}
