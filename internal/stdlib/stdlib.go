// Package stdlib says which import paths are the standard library's. Package
// typed uses it to leave the standard library types' unexported fields out
// of its encoding, and analyzers/fuzztyped to say the same in go vet: the
// two must agree, so the list is here once. It imports only strings, as the
// runtime source fuzzbox embeds (runtime.go) must.
package stdlib

import "strings"

// Contains reports whether path is the import path of a standard library
// package: its first element is one of the standard library's (Go 1.26's
// and 1.27's; TestContainsGoListStd checks them against go list std).
func Contains(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return roots[first]
}

var roots = map[string]bool{}

func init() {
	for _, r := range strings.Fields(`archive bufio bytes cmp compress container context crypto database debug embed
		encoding errors expvar flag fmt go hash html image index internal io iter log maps math mime net os path
		plugin reflect regexp runtime slices sort strconv strings structs sync syscall testing text time unicode
		unique unsafe uuid vendor weak`) {
		roots[r] = true
	}
}
