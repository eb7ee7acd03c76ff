// Package utf16 fuzzes a UTF-16 (byte order mark) decoder from
// golang.org/x/text/encoding/unicode, as a program that accepts text files in
// UTF-16 would.
//
// Module golang.org/x/text v0.3.2; fixed in v0.3.3.
// Upstream: https://github.com/golang/go/issues/39491, CVE-2020-14040.
// Bug: a decoder made with UseBOM or ExpectBOM returns transform.ErrShortSrc
// for a one-byte input even at EOF, and Decoder.String (transform.String)
// retries forever, doubling its buffers: an infinite loop that also grows the
// heap by gigabytes within seconds. Engines report it as a hang or as running
// out of memory, depending on which limit is hit first.
//
// Signature: kind=(hang|oom|hung or exited)|out of memory|utf16Decoder
package utf16
