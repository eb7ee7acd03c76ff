package magic64

import "testing"

func FuzzAuthorize(f *testing.F) {
	users := map[int64]*User{
		1001: {Name: "ana", Scopes: []string{"read", "write:*"}},
		-7:   {Name: "bo", Scopes: []string{"admin"}},
	}
	f.Add(int64(1001), "read")
	f.Add(int64(-7), "write:logs")
	f.Add(int64(0), "")
	f.Fuzz(func(t *testing.T, token int64, scope string) {
		if Authorize(users, token, scope) && users[token] == nil {
			t.Fatalf("token %d with no user authorized for %q", token, scope)
		}
	})
}
