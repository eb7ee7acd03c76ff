// Package ossfuzz is fuzzbox's OSS-Fuzz example: a framing encoder whose fuzz
// test (FuzzFrame) takes three arguments and whose planted bug sits behind
// the shape its f.Add seeds show (the "pad" tag with a short final frame).
// .ci/ossfuzz.sh builds it with "fuzzbox build -libfuzzer", lets libFuzzer
// find the bug, turns the crash into a go test reproducer with "fuzzbox corpus
// import -from-libfuzzer" and replays it with stock go test; docs/oss-fuzz.md
// walks through the same steps.
//
// Nothing in fuzzbox imports this package.
package ossfuzz

import "errors"

// Errors of Frame.
var (
	ErrTag  = errors.New("ossfuzz: tag must be 1 to 8 bytes")
	ErrSize = errors.New("ossfuzz: frame size must be 1 to 255")
)

// Frame splits payload into frames of at most size bytes. Each frame is the
// tag, one length byte and the bytes. With the tag "pad", a short final
// frame is followed by the last three payload bytes again, so that a reader
// can check the end.
func Frame(tag string, size int, payload []byte) ([]byte, error) {
	if tag == "" || len(tag) > 8 {
		return nil, ErrTag
	}
	if size < 1 || size > 255 {
		return nil, ErrSize
	}
	var out []byte
	for off := 0; off < len(payload); off += size {
		end := min(off+size, len(payload))
		out = append(out, tag...)
		out = append(out, byte(end-off))
		out = append(out, payload[off:end]...)
		if tag == "pad" && end-off < size {
			// Planted bug: a payload shorter than three bytes has no
			// three last bytes (slice bounds out of range).
			out = append(out, payload[end-3:end]...)
		}
	}
	return out, nil
}
