// Package xpathquery fuzzes XPath 1.0 queries in github.com/antchfx/xpath
// (xpath.Compile, then Expr.Evaluate over a small XML document, reading every
// node a node-set result selects), as a program that lets its users query
// documents with XPath does; htmlquery and xmlquery run the same two calls.
// The navigator in nav.go walks a tree built with encoding/xml.
//
// Module github.com/antchfx/xpath v1.3.7; fixed in v1.3.8 (pull request
// #129, commit 52c3ea6 "Reject undeclared variables nested in an
// expression", 2026-07). Upstream: https://github.com/antchfx/htmlquery/issues/31
// (2020, "Panic when querying malformed xpath", $test/@attr) and
// https://github.com/antchfx/htmlquery/issues/22 (2020, $example).
// Bug: the query builder has no case for a variable reference ($name), so
// a variable inside a larger expression ($x/a, $v + 1, count($x), a
// predicate such as //book[price > $max]) compiles without an error into an
// expression with a nil sub-query (a bare "$x" alone is rejected as
// undeclared), and evaluating it dereferences the nil query: "invalid memory
// address or nil pointer dereference" under Expr.Evaluate, in whichever
// query's Clone, Select or Evaluate reaches it first.
//
// Two other bugs of the same evaluator count too: the engines stop at their
// first failure, and both met these in the first measurement (2026-12-06,
// bench/README.md). A comparison of a node-set, number or string with
// a string that is not a number ('abc' = 1, //author > 1) panics with
// strconv.ParseFloat's error in cmpNumericString or cmpNodeSetNumeric
// (https://github.com/antchfx/xpath/issues/126, fixed in v1.3.8 by commit
// 43837f1 and pull request #127). A comparison of a boolean with anything
// but a boolean (1<2<3, (1=1) = 'a') calls a nil entry of the comparison
// table, a nil pointer dereference in ltFunc, eqFunc and the others, fixed in
// v1.3.9 (which fills the table's boolean row and column; no upstream report
// found). The signature matches all three.
//
// Signature: nil pointer dereference(?s:.*)antchfx/xpath\.|strconv\.ParseFloat(?s:.*)antchfx/xpath\.cmp
package xpathquery
