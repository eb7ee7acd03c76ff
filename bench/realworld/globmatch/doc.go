// Package globmatch fuzzes github.com/gobwas/glob, the glob matcher of
// many file watchers, proxies and CLIs (pattern syntax: *, **, ?, [a-z],
// [!a], {alt,alt}): a pattern is compiled with '/' as the separator and
// matched against a path, as a program filtering paths by a user's
// pattern does.
//
// Module github.com/gobwas/glob v0.2.3, the last release (2018); not fixed
// in any release. Upstream: https://github.com/gobwas/glob/issues/59 (open,
// found by fuzzing). Bug: the lexer accepts an unclosed alternatives brace
// and the compiler turns text around it into a match.Row whose length it
// takes from the pattern, not from the subject: matching a subject shorter
// than the row slices past its end, "slice bounds out of range" in
// match.Row.matchAll (the report's pattern "/{a{*.json{"; "{a{*b{" against
// "acb" is enough). The input is a pattern and a subject of a few bytes
// each whose shapes must agree: nested unclosed braces around a star and a
// literal.
//
// Signature: match\.Row\.(matchAll|Index)
package globmatch
