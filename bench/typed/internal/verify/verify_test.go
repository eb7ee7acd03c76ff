//go:build verify

// Package verify checks, behind the verify build tag, that every planted bug
// of the typed set is reachable: one test per target calls the code under
// test with an input that triggers its bug and matches the panic and its
// stack against the target's Signature line. The inputs live only here, not
// in any package an engine builds (fuzzbox's dictionary reads the target
// package's own files).
//
//	cd bench/typed && go test -tags=verify ./internal/verify
package verify

import (
	"bytes"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"testing"

	"fuzzbox.dev/bench/typed/frame"
	"fuzzbox.dev/bench/typed/nested"
	"fuzzbox.dev/bench/typed/nilptr"
	"fuzzbox.dev/bench/typed/opseq"
	"fuzzbox.dev/bench/typed/quota"
	"fuzzbox.dev/bench/typed/routes"
)

var signatureRE = regexp.MustCompile(`(?m)^//\s*Signature:\s*(.+?)\s*$`)

// signature is the target's Signature line as a regular expression.
func signature(t *testing.T, target string) *regexp.Regexp {
	files, _ := filepath.Glob(filepath.Join("..", "..", target, "*.go"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := signatureRE.FindSubmatch(src); m != nil {
			return regexp.MustCompile(string(m[1]))
		}
	}
	t.Fatalf("%s has no Signature line", target)
	return nil
}

// mustPanic runs fn and checks that it panics with a report matching
// target's signature.
func mustPanic(t *testing.T, target string, fn func()) {
	t.Helper()
	var report string
	func() {
		defer func() {
			if r := recover(); r != nil {
				report = fmt.Sprintf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		fn()
	}()
	if report == "" {
		t.Fatalf("%s: no panic", target)
	}
	if re := signature(t, target); !re.MatchString(report) {
		t.Fatalf("%s: panic does not match %q:\n%s", target, re, report)
	}
}

func TestNested(t *testing.T) {
	mustPanic(t, "nested", func() {
		nested.Authorize(nested.Request{
			Route: nested.Route{Method: "DELETE", Path: "/v1/tenants"},
			Auth:  nested.Auth{Kind: nested.AuthKey, Cred: nested.Credential{KeyID: 1, Secret: "12345678", Scope: nested.Scope{Tenant: 0x7e4a17c0ffee0001, Admin: true}}},
		})
	})
}

func TestOpseq(t *testing.T) {
	mustPanic(t, "opseq", func() {
		s := opseq.New()
		for _, op := range []opseq.Op{{Kind: opseq.OpBegin}, {Kind: opseq.OpSavepoint, ID: 3}, {Kind: opseq.OpRelease, ID: 3}, {Kind: opseq.OpRollbackTo, ID: 3}} {
			s.Apply(op)
		}
	})
}

func TestQuota(t *testing.T) {
	mustPanic(t, "quota", func() { quota.New(quota.Limits{"/admin/reload": 1 << 29}) })
}

func TestNilptr(t *testing.T) {
	mustPanic(t, "nilptr", func() {
		nilptr.OwnerOf(&nilptr.Node{Name: "mnt", Kind: "mount", Meta: &nilptr.Meta{}, Parent: &nilptr.Node{Name: "/", Kind: "dir"}})
	})
}

func TestRoutes(t *testing.T) {
	mustPanic(t, "routes", func() {
		tbl := routes.New()
		tbl.Add(routes.Route{Dst: netip.MustParsePrefix("10.0.0.0/8"), Via: netip.MustParseAddr("192.168.1.1")})
		tbl.Add(routes.Route{Dst: netip.MustParsePrefix("10.0.0.7/8"), Via: netip.MustParseAddr("192.168.1.1")})
		tbl.Lookup(netip.MustParseAddr("10.1.2.3"))
	})
}

func TestFrame(t *testing.T) {
	mustPanic(t, "frame", func() {
		frame.FlipVertical(frame.Frame{Width: 3, Height: 2, Stride: 9, Format: frame.Format{BPP: 3}, Pix: bytes.Repeat([]byte{1}, 18)})
	})
}
