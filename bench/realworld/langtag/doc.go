// Package langtag fuzzes BCP 47 language tag parsing in
// golang.org/x/text/language (language.Parse), as an HTTP server that reads
// the user's language from a query parameter or cookie would.
//
// Module golang.org/x/text v0.3.2 (also v0.3.5); fixed in v0.3.6 (commit e3aa4ad
// "language: allow variable number of types per key in -u- extension").
// Upstream: https://github.com/golang/go/issues/42535, CVE-2020-28851.
// Bug: in a -u- (Unicode locale) extension, an attribute followed by a key
// without a type (e.g. "-u-abc-rg") makes Tag.findTypeForKey, which Parse
// reaches through compact.Make and Tag.TypeForKey, read one subtag past the
// end: "index out of range" in internal/language.Tag.findTypeForKey.
//
// v0.3.2 has other parser panics: scanner.resizeRange slicing past the end
// of a tag with a short -t- subtag (golang/go#42536, CVE-2020-28852, fixed
// in v0.3.5), and those fixed in v0.3.6 and v0.3.7 (CVE-2021-38561). They do
// not match the signature and are reported as other failures. (This target
// first named the resizeRange panic as its bug; in the first full run of the
// benchmark every engine found the findTypeForKey panic within 4 s, in both
// runs, and none found resizeRange, so the target names the bug fuzzing
// reaches.)
//
// Signature: findTypeForKey
package langtag
