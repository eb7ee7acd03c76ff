// Package grammar parses a JSON-like configuration language: objects
// {"k": v, ...}, arrays [v, ...], strings "...", integers, true, false, null.
//
// Bug: an empty object nested at depth 5 or more (for example [[[[{}]]]])
// panics in the code that flattens deep configuration. Getting there needs a
// balanced structure several levels deeper than any seed: the recursion
// reuses the same code at every depth, so deeper nesting gives go test -fuzz
// no new coverage until the bug itself. Comparison guidance on depth >= 5
// says how deep, but the engine must still build balanced brackets.
package grammar

import (
	"fmt"
	"strconv"
)

// maxDepth bounds recursion; deeper input is an error, not a crash.
const maxDepth = 64

// Parse parses one value and requires that nothing follows it.
func Parse(s string) (any, error) {
	p := &parser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("grammar: trailing data at offset %d", p.i)
	}
	return v, nil
}

type parser struct {
	s string
	i int
}

func (p *parser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("grammar: offset %d: "+format, append([]any{p.i}, args...)...)
}

func (p *parser) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, p.errorf("nesting deeper than %d", maxDepth)
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, p.errorf("unexpected end of input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, w := range []struct {
		lit string
		v   any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(p.s)-p.i >= len(w.lit) && p.s[p.i:p.i+len(w.lit)] == w.lit {
			p.i += len(w.lit)
			return w.v, nil
		}
	}
	return nil, p.errorf("unexpected %q", p.s[p.i])
}

func (p *parser) object(depth int) (any, error) {
	p.i++ // '{'
	m := map[string]any{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return flatten(m, depth), nil
		}
		if len(m) > 0 {
			if p.i >= len(p.s) || p.s[p.i] != ',' {
				return nil, p.errorf("want ',' or '}'")
			}
			p.i++
			p.space()
		}
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errorf("want object key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errorf("want ':'")
		}
		p.i++
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		m[k.(string)] = v
	}
}

// flatten stands in for the code that merges deep configuration sections.
func flatten(m map[string]any, depth int) map[string]any {
	if depth >= 5 && len(m) == 0 {
		panic("BUG grammar: empty object at nesting depth >= 5")
	}
	return m
}

func (p *parser) array(depth int) (any, error) {
	p.i++ // '['
	var a []any
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return a, nil
		}
		if len(a) > 0 {
			if p.i >= len(p.s) || p.s[p.i] != ',' {
				return nil, p.errorf("want ',' or ']'")
			}
			p.i++
		}
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
	}
}

func (p *parser) str() (any, error) {
	start := p.i + 1
	for j := start; j < len(p.s); j++ {
		switch p.s[j] {
		case '\\':
			j++
		case '"':
			p.i = j + 1
			s, err := strconv.Unquote(p.s[start-1 : j+1])
			if err != nil {
				return nil, p.errorf("bad string: %v", err)
			}
			return s, nil
		}
	}
	return nil, p.errorf("unterminated string")
}

func (p *parser) number() (any, error) {
	j := p.i
	if p.s[j] == '-' {
		j++
	}
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	n, err := strconv.ParseInt(p.s[p.i:j], 10, 64)
	if err != nil {
		return nil, p.errorf("bad number: %v", err)
	}
	p.i = j
	return n, nil
}
