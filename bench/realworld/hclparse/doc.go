// Package hclparse fuzzes HCL 1 configuration decoding in
// github.com/hashicorp/hcl (hcl.Unmarshal into an interface{}), as the
// go-fuzz harness of the upstream reports does and as a program reading its
// configuration file into a generic value does. hcl.Unmarshal reads an
// input whose first non-space character is "{" as HCL's JSON form.
//
// Module github.com/hashicorp/hcl v1.0.0, the last HCL 1 release (Nomad,
// Vault and Consul configurations, Terraform before 0.12); not fixed in any
// HCL 1 release. Upstream: https://github.com/hashicorp/hcl/issues/194
// (open; the same bug in the HCL scanner, #127, was fixed by #239 in 2018,
// not in the JSON scanner). Bug: the JSON scanner's scanDigits reads the
// digits of an octal escape and then puts back the character after them,
// even when there was none: a JSON string that ends the input right after a
// backslash and a digit makes bytes.Buffer.UnreadRune panic ("previous
// operation was not a successful ReadRune") in json/scanner.(*Scanner).unread.
// The smallest input is 4 bytes: {"\0.
//
// A second open bug of the same release counts as found too (the engines
// stop at their first failure, and both bugs are in the scanners' escape
// handling): an octal escape above \377 in an HCL quoted string, "\400",
// which the HCL scanner accepts and token.Token.Value's strconv.Unquote
// rejects with a panic, "unquote "\400" err: invalid syntax"
// (https://github.com/hashicorp/hcl/issues/129, open). The signature matches
// either.
//
// Signature: json/scanner\.\(\*Scanner\)\.unread|unquote .* err: invalid syntax
package hclparse
