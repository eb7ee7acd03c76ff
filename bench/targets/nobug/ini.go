// Package nobug is the benchmark's throughput target: an INI-style config
// parser with no planted bug, so both engines fuzz it for the whole budget
// and their executions per second compare on the same code.
package nobug

import (
	"fmt"
	"strconv"
	"strings"
)

// Config maps "section.key" to its value.
type Config map[string]string

// Parse reads lines of "[section]", "key = value" and "; comments".
func Parse(src string) (Config, error) {
	c := Config{}
	section := ""
	for n, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, ";") || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			if !strings.HasSuffix(line, "]") || len(line) < 3 {
				return nil, fmt.Errorf("line %d: bad section header", n+1)
			}
			section = strings.TrimSpace(line[1 : len(line)-1])
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				return nil, fmt.Errorf("line %d: want key = value", n+1)
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if uq, err := strconv.Unquote(v); err == nil {
				v = uq
			}
			c[section+"."+k] = v
		}
	}
	return c, nil
}

// Int returns the integer value of key, or def.
func (c Config) Int(key string, def int) int {
	if n, err := strconv.Atoi(c[key]); err == nil {
		return n
	}
	return def
}
