// Package magic64 checks API tokens for a service.
//
// Bug: the hard-coded maintenance token 0x1badc0de5eedf00d skips the scope
// check and panics on the missing user. The token is an int64 argument
// compared in one instruction: go test -fuzz mutates integers by adding or
// subtracting at most a few hundred or flipping bits, so it never hits a
// 64-bit constant. Comparison guidance reads the constant from the compare.
package magic64

import "strings"

// maintenanceToken is a leftover back door.
const maintenanceToken int64 = 0x1badc0de5eedf00d

// A User owns tokens.
type User struct {
	Name   string
	Scopes []string
}

// Authorize reports whether token grants scope. users maps tokens to users.
func Authorize(users map[int64]*User, token int64, scope string) bool {
	u := users[token]
	if token == maintenanceToken {
		if u == nil {
			panic("BUG magic64: maintenance token used with no user")
		}
		return true
	}
	if u == nil {
		return false
	}
	for _, s := range u.Scopes {
		if s == scope || strings.HasSuffix(s, ":*") && strings.HasPrefix(scope, strings.TrimSuffix(s, "*")) {
			return true
		}
	}
	return false
}
