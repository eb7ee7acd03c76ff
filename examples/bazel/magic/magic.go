// Package magic decodes messages carried in frames (package frame, where the
// planted bug of the instrument_deps example lives).
package magic

import (
	"errors"

	"example.com/fuzzbox-bazel-example/magic/frame"
)

// Decode returns the text of a message: a frame whose body is the text.
func Decode(data []byte) (string, error) {
	body, err := frame.Parse(data)
	if err != nil {
		return "", errors.Join(errors.New("magic: not a message"), err)
	}
	return string(body), nil
}
