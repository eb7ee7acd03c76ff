package nested

import (
	"testing"

	"fuzzbox.dev/bench/typed/internal/consume"
)

// FuzzAuthorizeBytes is FuzzAuthorize's byte-consuming twin (for
// go-118-fuzz-build): it builds a Request from the bytes field by field.
func FuzzAuthorizeBytes(f *testing.F) {
	f.Add([]byte("\x03GET\x0b/v1/buckets\x01\x07\x00\x00\x00\x0as3cr3t-key\x2a\x00\x00\x00\x00\x00\x00\x00\x00\x01\x04/v1/\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := consume.New(data)
		var req Request
		req.Route = Route{Method: c.String(), Path: c.String()}
		req.Auth.Kind = AuthKind(c.Uint8())
		req.Auth.Cred = Credential{KeyID: c.Uint32(), Secret: c.String()}
		req.Auth.Cred.Scope = Scope{Tenant: c.Uint64(), Admin: c.Bool()}
		for range c.Count(4) {
			req.Auth.Cred.Scope.Paths = append(req.Auth.Cred.Scope.Paths, c.String())
		}
		if c.Bool() {
			req.Auth.Session = &Session{User: c.String(), MFA: c.Bool()}
		}
		Authorize(req)
	})
}
