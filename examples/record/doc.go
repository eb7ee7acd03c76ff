// Package record is fuzzbox's shipped example: a decoder for a small binary
// format of length-prefixed key=value records, with a fuzz test (FuzzDecode)
// and one planted bug for fuzzbox fuzz to find. The README's first command
// runs it:
//
//	go run ./cmd/fuzzbox fuzz -fuzz=FuzzDecode -fuzztime=30s ./examples/record
//
// The format is a sequence of records. Each record is a 2-byte tag, a
// 1-byte length n and n bytes of value:
//
//	"KV"        the value is "key=value"
//	"#" + any   a comment; the value is ignored
//	"X" + t     an extension of type t; the value is a 2-byte big-endian
//	            payload length, the payload, and padding
//
// Nothing else in fuzzbox imports this package.
package record
