package typed

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

func TestBackend(t *testing.T) {
	if _, err := Backend(Config{}); err != ErrNoBackend {
		t.Fatalf("Backend(Config{}) error = %v, want ErrNoBackend", err)
	}
	c := Config{Listener: Listener{Protocol: "h2c", Tag: TagCanary}, Backends: []string{"10.0.0.1:80", "10.0.0.2:80"}}
	if got, err := Backend(c); err != nil || got != "10.0.0.2:80" {
		t.Fatalf("Backend(canary) = %q, %v; want the second backend", got, err)
	}
}

// FuzzBackend fuzzes Backend with typed arguments: a Config, not bytes. The
// seeds and every corpus file are one []byte (typed's encoding), so the
// replay test and stock go test run them like any fuzz test's.
func FuzzBackend(f *testing.F) {
	typed.Add(f, Config{Name: "web", Listener: Listener{Port: 8080, Protocol: "http"}, Backends: []string{"10.0.0.1:80"}})
	typed.Add(f, Config{Name: "api", Listener: Listener{Port: 443, Protocol: "https", Tag: 7}, Backends: []string{"10.0.0.1:443", "10.0.0.2:443"}})
	typed.Fuzz(f, func(t *testing.T, c Config) {
		b, err := Backend(c)
		if err != nil {
			return
		}
		for _, a := range c.Backends {
			if a == b {
				return
			}
		}
		t.Fatalf("Backend = %q, not one of the backends %q", b, c.Backends)
	})
}
