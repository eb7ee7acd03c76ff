// Package langtag fuzzes BCP 47 language tag parsing in
// golang.org/x/text/language (language.Parse), as an HTTP server that reads
// the user's language from a query parameter or cookie would.
//
// Module golang.org/x/text v0.3.2; fixed in v0.3.5 (the fix of
// golang/go#42536, commit 4482a91 "internal/language: fix resizeRange index
// wrong way").
// Upstream: https://github.com/golang/go/issues/42536, CVE-2020-28852.
// Bug: scanner.resizeRange moves the bytes after a token the wrong way when
// it shrinks a token (e.g. a short transformed-content -t- extension
// subtag), and slices past the end of the tag: "slice bounds out of range"
// in internal/language.(*scanner).resizeRange. (v0.3.2 has other parser
// panics, fixed in v0.3.5, v0.3.6 and v0.3.7; they do not match the
// signature and are reported as other failures.)
//
// Signature: resizeRange
package langtag
