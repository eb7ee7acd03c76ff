package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Dictionaries use the AFL/libFuzzer format: one token per line, as a
// double-quoted string with \\, \" and \xNN escapes, optionally preceded by
// a name and '=' (name="token") and a @level suffix on the name; blank lines
// and lines starting with '#' are ignored.

// loadDicts reads the -dict file (required to exist when named) and the
// target's conventional dictionary <corpusDir>.dict (optional).
func loadDicts(file, corpusDir string) ([][]byte, error) {
	var out [][]byte
	if file != "" {
		toks, err := readDict(file)
		if err != nil {
			return nil, err
		}
		out = append(out, toks...)
	}
	conv := strings.TrimRight(corpusDir, "/") + ".dict"
	toks, err := readDict(conv)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return append(out, toks...), nil
}

func readDict(path string) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("engine: dictionary: %w", err)
	}
	toks, err := parseDict(data)
	if err != nil {
		return nil, fmt.Errorf("engine: dictionary %s: %w", path, err)
	}
	return toks, nil
}

func parseDict(data []byte) ([][]byte, error) {
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
