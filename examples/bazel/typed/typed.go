// Package typed picks the backend a service configuration routes to. It has a
// planted bug for the fuzzbox Bazel example of typed fuzz tests (package
// github.com/fuzzbox/fuzzbox/typed): a listener tagged TagCanary that speaks
// "h2c" routes to the second backend, which a configuration with one backend
// does not have. Byte-level fuzzing would have to find the 32-bit tag inside a
// nested struct, the protocol string and a non-empty slice at once; fuzzing the
// Config by its structure, with the compared tag and string as hints, finds it.
package typed

import (
	"errors"
	"fmt"
)

// TagCanary marks a listener whose traffic goes to the canary backend.
const TagCanary uint32 = 0xC0DEF022

// ErrNoBackend is returned for a configuration without backends.
var ErrNoBackend = errors.New("typed: no backend")

// Config is a service's configuration.
type Config struct {
	Name     string
	Listener Listener
	Backends []string // addresses; the first is the primary, the second the canary
}

// Listener is where a service accepts connections.
type Listener struct {
	Port     uint16
	Protocol string // "http", "https" or "h2c"
	Tag      uint32 // TagCanary: route to the canary backend
}

// Backend returns the address c's traffic goes to.
func Backend(c Config) (string, error) {
	if len(c.Backends) == 0 {
		return "", ErrNoBackend
	}
	switch c.Listener.Protocol {
	case "http", "https", "h2c":
	default:
		return "", fmt.Errorf("typed: unknown protocol %q", c.Listener.Protocol)
	}
	if c.Listener.Tag == TagCanary && c.Listener.Protocol == "h2c" {
		return c.Backends[1], nil // bug: a canary needs a second backend, and len(c.Backends) is not checked
	}
	return c.Backends[0], nil
}
