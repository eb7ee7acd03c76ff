package regoparse

import (
	"testing"

	"github.com/open-policy-agent/opa/ast"
)

// FuzzParse is OPA's own fuzzer at that version (ast/fuzz.go, go-fuzz):
// parse the statements and, when they parse, compile them as a module.
func FuzzParse(f *testing.F) {
	f.Add("package example\n\nallow {\n  input.user == \"alice\"\n  input.method == \"GET\"\n}\n")
	f.Add("package authz\n\ndefault allow = false\n\nallow {\n  some i\n  data.roles[i] == input.role\n  count(input.groups) > 0\n}\n")
	f.Add("package x\n\nf(a) = b {\n  b := [y | y := a[_]; y > 1]\n}\n\ng = {k: v | v := data.m[k]}\n")
	f.Fuzz(func(t *testing.T, src string) {
		if _, _, err := ast.ParseStatements("", src); err == nil {
			ast.CompileModules(map[string]string{"": src})
		}
	})
}
