// Package jsondelete fuzzes jsonparser.Delete with a document and a key, as a
// proxy that strips a field from client JSON would.
//
// Module github.com/buger/jsonparser v1.1.0 (also v1.1.1); fixed in v1.1.2.
// Upstream: https://github.com/buger/jsonparser/issues/275,
// GHSA-6g7g-w4f8-9c9x (CVE-2026-32285).
// Bug: on malformed input (a key followed by another key instead of a value
// and a comma), Delete computes a negative offset and slices with it: "slice
// bounds out of range [-1:]" in jsonparser.Delete.
//
// Signature: jsonparser\.Delete
package jsondelete
