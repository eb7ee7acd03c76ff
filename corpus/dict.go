package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Dictionaries give a fuzzer tokens to insert into inputs. fuzzbox reads
// and writes the AFL/libFuzzer format: one token per line, as a
// double-quoted string with \\, \" and \xNN escapes, optionally preceded by
// a name and '=' (name="token", the name may carry an @level suffix); blank
// lines and lines starting with '#' are ignored. The engine reads -dict
// files, testdata/fuzz/<FuzzName>.dict and its own automatic dictionary; the
// fuzzbox command writes dictionaries of source literals.

// ParseDict parses a dictionary. Errors name the 1-based line.
func ParseDict(data []byte) ([][]byte, error) {
	var toks [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		q := strings.IndexByte(line, '"')
		if q < 0 || !strings.HasSuffix(line, `"`) || q == len(line)-1 {
			return nil, fmt.Errorf("line %d: want a double-quoted token, optionally name=\"token\"", n)
		}
		tok, err := unescapeToken(line[q+1 : len(line)-1])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		toks = append(toks, tok)
	}
	return toks, sc.Err()
}

func unescapeToken(s string) ([]byte, error) {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b = append(b, c)
			continue
		}
		if i+1 >= len(s) {
			return nil, errors.New("token ends with a backslash")
		}
		i++
		switch s[i] {
		case '\\', '"':
			b = append(b, s[i])
		case 'x':
			if i+2 >= len(s) {
				return nil, errors.New(`truncated \x escape`)
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return nil, fmt.Errorf(`bad \x escape %q`, s[i-1:i+3])
			}
			b = append(b, byte(v))
			i += 2
		default:
			return nil, fmt.Errorf(`unknown escape \%c`, s[i])
		}
	}
	return b, nil
}

// QuoteToken renders t as one dictionary line (without the newline).
func QuoteToken(t []byte) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range t {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\x%02x", c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
