// Package graphqlexec fuzzes GraphQL query validation and execution in
// github.com/graph-gophers/graphql-go (Schema.Validate, then Schema.Exec)
// against the module's own Star Wars example schema and resolver, as a
// GraphQL server handling client queries does and as the module's own fuzz
// test, FuzzSchemaExec (added in v1.9.0), does.
//
// Module github.com/graph-gophers/graphql-go v1.3.0; fixed in v1.5.0 (PR
// #515 "Adding primitive value validation").
// Upstream: https://github.com/graph-gophers/graphql-go/issues/497
// ("Unexpected panic in (*PrimitiveValue).Deserialize") and the pull request
// that fixes it, https://github.com/graph-gophers/graphql-go/pull/515.
// Bug: validation checks a literal's token type, not its text, and the code
// that converts the literal then panics on text it cannot convert. The
// query lexer is text/scanner, which reads Go number syntax, so 0x1, 0b1 and
// 0o1 are Int tokens; for an argument or input field of type Int,
// validateBasicLit calls strconv.ParseFloat on the text and panics on its
// error ("strconv.ParseFloat: parsing "0x1": invalid syntax") in
// validation.validateBasicLit. A variable's default value passes validation
// the same way (a String default -"" is a String token with a minus sign in
// front; an ID default 0x1 is an Int token) and Schema.exec converts it with
// types.(*PrimitiveValue).Deserialize, which panics on the strconv error
// outside the executor's recover. The input needs a query that validates up
// to that literal: a field of the schema with an Int argument, or a variable
// definition with a default that is used in an argument of its type.
// (Deserialize also panics on such literals given directly as arguments,
// e.g. an ID 0x1, but the executor recovers those panics and returns them as
// errors, which is not a failure.)
//
// Two more bugs are open, both still in v1.11.0, the newest release on the
// proxy (their inputs panic there too; checked in a copy). Validation's
// check of overlapping fields (argumentsConflict, two selections of one
// field with the same response name) converts both fields' argument
// literals with Deserialize before validateBasicLit ever sees them, so two
// friendsConnection(first:6_6) selections, or 0X4, panic in
// (*PrimitiveValue).Deserialize out of Schema.Validate: the #497 panic by
// another path, which #515 did not close. And the lexer panics on a description string whose
// escape text/scanner accepts and strconv.Unquote rejects, such as the octal
// \400 (over 255), where a description may stand (before a variable
// definition's name: query($"\400"). consumeStringComment panics with
// strconv.Unquote's error, which CatchSyntaxError, expecting only its own
// syntax errors, panics again out of Schema.Validate. The target counts
// any of the three, whichever an engine reaches first.
//
// Signature: validation\.validateBasicLit|\(\*PrimitiveValue\)\.Deserialize|\(\*Lexer\)\.consumeStringComment
package graphqlexec
