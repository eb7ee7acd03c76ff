// Package exprfilter fuzzes the expression language github.com/expr-lang/expr
// (expr.Compile with an environment, then expr.Run), as a rules engine, an
// alerting or a feature-flag service evaluating expressions its users write
// against their data does, and as the module's own fuzz test, FuzzExpr
// (run on OSS-Fuzz), does. The environment is a map of a user and a list of
// order items; the language has operators, member access, literals of
// arrays and maps, let bindings, the ternary and ?? operators, pipes and
// builtins with predicates (filter, map, all, any, count, sum, ...).
//
// Module github.com/expr-lang/expr v1.17.6 (the bug is in every release
// from v1.17.0; v1.16.9 compiles the same input); fixed in v1.17.7 (commit
// f423c10 "fix(optimizer): wrap merged results as predicates", PR #864).
// Upstream: https://github.com/expr-lang/expr/issues/857 (reported by a user
// from a query that failed to compile; in the fixing pull request,
// https://github.com/expr-lang/expr/pull/864, its author asks whether it also
// addresses an OSS-Fuzz finding, issue #790; not confirmed there).
// Bug: the optimizer's constant-folding pass merges two consecutive filter
// calls, filter(filter(a, p), q), into one, filter(a, p && q), but puts the
// merged predicate in as a bare BinaryNode where the builtin expects a
// PredicateNode. The pass runs again until nothing changes; with a third
// filter around the merged one it merges again and type-asserts the
// merged call's predicate: "interface conversion: ast.Node is
// *ast.BinaryNode, not *ast.PredicateNode" in optimizer.(*fold).Visit,
// inside expr.Compile (the virtual machine recovers its own panics into
// errors; the compile-time passes do not). The input needs three filter
// calls applied one to the result of the other, nested or as a pipeline
// (items | filter(...) | filter(...) | filter(...)), each a valid
// predicate, in an expression that type-checks: two are not enough.
//
// Signature: (?s)not \*ast\.PredicateNode.*optimizer\.\(\*fold\)\.Visit
package exprfilter
