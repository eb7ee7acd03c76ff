package nested

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

func FuzzAuthorize(f *testing.F) {
	typed.Add(f, Request{
		Route: Route{Method: "GET", Path: "/v1/buckets"},
		Auth:  Auth{Kind: AuthKey, Cred: Credential{KeyID: 7, Secret: "s3cr3t-key", Scope: Scope{Tenant: 42, Paths: []string{"/v1/"}}}},
	})
	typed.Add(f, Request{
		Route: Route{Method: "DELETE", Path: "/v1/buckets/b1"},
		Auth:  Auth{Kind: AuthSession, Session: &Session{User: "ops", MFA: true}},
	})
	typed.Fuzz(f, func(t *testing.T, req Request) {
		Authorize(req)
	})
}
