// Package jsonget fuzzes jsonparser.Get with a document and a key path, as a
// service that extracts fields from client JSON would.
//
// Module github.com/buger/jsonparser v1.1.0; fixed in v1.1.1.
// Upstream: https://github.com/buger/jsonparser/issues/219, CVE-2020-35381.
// Bug: searchKeys, looking for a key in a document that is only an opening
// bracket (or otherwise ends inside an array), slices the document past its
// end: "slice bounds out of range" in jsonparser.searchKeys.
//
// Signature: jsonparser\.searchKeys
package jsonget
