// Package regoparse fuzzes the parser of OPA's policy language, Rego
// (github.com/open-policy-agent/opa/ast), as OPA's own go-fuzz fuzzer did at
// that version (ast/fuzz.go): parse the statements, then compile them as a
// module.
//
// Module github.com/open-policy-agent/opa v0.23.2; fixed in v0.24.0 (commit
// "ast: Fix panic in parser post-processing of expressions").
// Upstream: https://github.com/open-policy-agent/opa/pull/2715 (fixes #2714:
// "a panic caught in the fuzzer due to misuse of operands returned by
// expr.Operand()"), found by OPA's nightly fuzzing.
// Bug: a module whose statement after the first is a call of eq (or assign)
// with fewer than two operands, such as "(d)eq()", is read as a rule
// definition; expr.Operand returns nil for the missing operand and the rule
// parser dereferences it: "invalid memory address or nil pointer
// dereference" in Term.Hash, under ParseCompleteDocRuleFromEqExpr; with a
// call as eq's one operand ("(d)eq(f(x))") the missing right-hand side is
// dereferenced in ParseRuleFromCallEqExpr instead, and with a reference of
// two terms ("(d)eq(p[x])") in ParsePartialObjectDocRuleFromEqExpr. The fix's
// check of both operands, before any of them is called, removes all three
// panics. The
// operator's name is compared as a Rego reference, and the rule parser runs
// only when the module parses.
//
// Signature: (?s)nil pointer dereference.*ast\.(ParseCompleteDocRuleFromEqExpr|ParseRuleFromCallEqExpr|ParsePartialObjectDocRuleFromEqExpr)
package regoparse
