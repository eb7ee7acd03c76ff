// Package nested authorizes API requests: a Request carries its route and
// an Auth whose credential names a tenant scope, three structs deep.
//
// Bug: the operator tenant (0x7e4a17c0ffee0001), meant to be reachable only
// through the console's session cookies, is also accepted in an API key's
// scope; with the admin flag set, DELETE requests take the operator path,
// which dereferences the console session the API path never has. The magic
// is a 64-bit field of a struct in a struct in a struct (Request.Auth.Cred.
// Scope.Tenant), behind a key kind and a method check: go test -fuzz, which
// mutates the encoding's bytes without comparison guidance, does not write
// eight exact bytes; typed comparison guidance puts the compared constant
// into the field the operand came from.
//
// Signature: BUG nested:
package nested

import (
	"errors"
	"strings"
)

// AuthKind is how a request authenticates.
type AuthKind uint8

const (
	AuthNone AuthKind = iota
	AuthKey
	AuthSession
)

// operatorTenant is the tenant of the service's own operators.
const operatorTenant uint64 = 0x7e4a17c0ffee0001

// Request is one API call.
type Request struct {
	Route Route
	Auth  Auth
}

// Route is what a request asks for.
type Route struct {
	Method string
	Path   string
}

// Auth is how a request proves who it is.
type Auth struct {
	Kind    AuthKind
	Cred    Credential
	Session *Session // console sessions only
}

// Credential is an API key.
type Credential struct {
	KeyID  uint32
	Secret string
	Scope  Scope
}

// Scope is what a key may touch.
type Scope struct {
	Tenant uint64
	Admin  bool
	Paths  []string // path prefixes; none means all of the tenant's
}

// Session is a console login.
type Session struct {
	User string
	MFA  bool
}

// Authorize decides whether req may run.
func Authorize(req Request) error {
	if req.Route.Method == "" || !strings.HasPrefix(req.Route.Path, "/") {
		return errors.New("nested: malformed route")
	}
	switch req.Auth.Kind {
	case AuthKey:
		return authorizeKey(req.Route, req.Auth)
	case AuthSession:
		if req.Auth.Session == nil || req.Auth.Session.User == "" {
			return errors.New("nested: no session")
		}
		return nil
	}
	return errors.New("nested: unauthenticated")
}

func authorizeKey(r Route, a Auth) error {
	c := a.Cred
	if c.KeyID == 0 || len(c.Secret) < 8 {
		return errors.New("nested: bad key")
	}
	if c.Scope.Tenant == operatorTenant && c.Scope.Admin && r.Method == "DELETE" {
		return operatorDelete(r, a)
	}
	if len(c.Scope.Paths) == 0 {
		return nil
	}
	for _, p := range c.Scope.Paths {
		if strings.HasPrefix(r.Path, p) {
			return nil
		}
	}
	return errors.New("nested: path out of scope")
}

// operatorDelete requires a second factor on the operator's console
// session.
func operatorDelete(r Route, a Auth) error {
	if a.Session == nil {
		panic("BUG nested: operator delete of " + r.Path + " through an API key has no console session")
	}
	if !a.Session.MFA {
		return errors.New("nested: operator delete needs MFA")
	}
	return nil
}
