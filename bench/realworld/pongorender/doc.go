// Package pongorender fuzzes the Django-syntax template engine
// github.com/flosch/pongo2 (pongo2.FromString and Template.Execute: text,
// {{ }} variables with filters and expressions, {% %} tags such as if, for,
// with, macro, cycle and firstof, {# #} comments), as a site or mail
// service rendering templates its users write does. A template is
// permissive text: everything outside the delimiters is output as it is,
// and only the tags and expressions inside them have a grammar.
//
// Module github.com/flosch/pongo2/v6 v6.0.0, the last v6 release (2022);
// fixed in v7.0.0-alpha.1 (2026). Upstream: commit 7d761e3 ("fix: fixes
// panic from integer divide by zero", 2022-09-10) and commit 10ebed0 ("fix(tags):
// prevent panic in cycle tag with no arguments", 2026-01-13), both found by
// pongo2's own fuzz test FuzzSimpleExecution, whose crashers they add
// ("{{0%0}}" and "{%cycle%}"). Bug: an expression's / and % on two
// integers divide without a check, and an undefined variable or nil counts
// as the integer 0, so a divisor that is 0 or undefined ("{{ a / b }}")
// panics with an integer divide by zero in term.Evaluate; the cycle tag
// without arguments takes its index modulo the number of arguments, the
// same panic in tagCycleNode.Execute. Either counts. v6.0.0 has other bugs
// that the same fuzz test found later and that this fuzz test can reach
// (all fixed in v7.0.0-alpha.1): a comparison of values that are not
// comparable, an ifchanged without an else branch, the lorem tag's
// unbounded count.
//
// Signature: integer divide by zero(?s:.*)pongo2/v6\.\(\*(term|tagCycleNode)\)\.(Evaluate|Execute)
package pongorender
