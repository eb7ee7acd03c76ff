// Package prefixkw parses HTTP/1.1-style header blocks ("Name: value" lines,
// CRLF or LF separated) into a canonical map.
//
// Bug: a header named "X-Forwarded-Override" (matched case-insensitively with
// strings.EqualFold, as HTTP requires) whose value starts with "proto=" panics.
// Neither keyword gives go test -fuzz any coverage for partial progress:
// EqualFold is one loop whatever the bytes are, and HasPrefix becomes one
// string compare. Go's compiler hooks both (libfuzzerHookEqualFold,
// libfuzzerHookStrCmp), so an engine with comparison guidance is told both
// keywords.
package prefixkw

import (
	"fmt"
	"strings"
)

// Parse reads a header block. Names are canonicalized to lower case; repeated
// names keep the last value.
func Parse(block string) (map[string]string, error) {
	h := map[string]string{}
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("prefixkw: malformed header line %q", line)
		}
		value = strings.TrimSpace(value)
		if strings.EqualFold(name, "X-Forwarded-Override") {
			if strings.HasPrefix(value, "proto=") {
				panic("BUG prefixkw: X-Forwarded-Override proto= reached")
			}
			continue // only proxies may set it
		}
		h[strings.ToLower(name)] = value
	}
	return h, nil
}
