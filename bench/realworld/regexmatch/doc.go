// Package regexmatch fuzzes the backtracking regular expression engine
// github.com/dlclark/regexp2 (a port of .NET's) in its ECMAScript mode
// (regexp2.Compile with regexp2.ECMAScript, then FindStringMatch and
// FindNextMatch over a text, with a match timeout), as a JavaScript engine
// running a script's RegExp does (goja and k6 use regexp2 that way) and as
// the fuzzing of the upstream report did: the pattern and the text are the
// fuzz arguments.
//
// Module github.com/dlclark/regexp2 v1.3.0 (also v1.2.1; v1.2.0 rejects the
// same patterns with a "missing closing )" error); fixed in v1.4.0 (commit
// 955551b "fixes #32 make sure octal parsing only eats chars 0-7").
// Upstream: https://github.com/dlclark/regexp2/issues/32 ("Panics found
// through fuzzing", found by fuzzing the pattern and the text).
// Bug: in ECMAScript mode a backslash and a digit that name a group the
// pattern does not have are read as an octal escape, and scanOctal takes
// every following character whose value minus '0' is at most 7, which is
// true of the characters below '0' too, such as '('. The first pass over
// the pattern, which counts the capture groups, reads "(?(" as the start of
// a conditional and skips its condition's parenthesis; the parse proper
// eats that "(" into the escape, so "?" becomes a quantifier and the
// condition "(0)" a capture group that was never counted. When a match
// reaches it, the runner records the capture in a slot past the end:
// "index out of range [2] with length 2" in regexp2.(*Match).addMatch
// (called by (*runner).capture). The input needs a pattern with an escape
// \N above the number of groups immediately followed by "(?(" and a group,
// e.g. (\2(?(0)), and a text in which the match gets as far as that group
// (here, one containing a 0): the nesting and escaping of the regex syntax,
// not one magic byte.
//
// v1.3.0 has other bugs in the matcher, fixed later, that this fuzz test can
// reach; they panic in other functions and are other failures:
// (?:){40} (issue #31, fixed in v1.4.0) in (*runner).trackPush1, a text
// with runes above U+FFFF against a Boyer-Moore prefix (issue #36, fixed in
// v1.5.0) in (*runner).findFirstChar, and atomic groups around empty lazy
// loops (issues #34 and #37, fixed in v1.12.0) in (*runner).backtrack or
// (*runner).popcrawl.
//
// Signature: regexp2\.\(\*Match\)\.addMatch
package regexmatch
