// Package gjsonget fuzzes gjson.Get with a document and a GJSON path (paths
// may hold queries and @modifiers), as a service that lets clients select
// fields of its JSON with GJSON syntax would.
//
// Module github.com/tidwall/gjson v1.6.3; fixed in v1.6.4.
// Upstream: https://github.com/tidwall/gjson/issues/192, CVE-2020-35380.
// Bug: squash, which trims a raw JSON value that a modifier such as @valid
// is applied to, reads past the end of an unterminated string: "slice bounds
// out of range" in gjson.squash. (v1.6.3 has other panics, fixed in v1.6.5
// and v1.6.6; they do not match the signature and are reported as other
// failures.)
//
// Signature: gjson\.squash
package gjsonget
