package corpus

import (
	"bytes"
	"go/token"
	"strconv"
)

// parseFast recognizes the canonical spellings Marshal writes (and a few
// more) without go/parser: a known type name, "(", one literal, ")", all in
// printable ASCII with no spaces or comments. It reports ok=false for
// anything else, which then goes to parseSlow. Whatever it accepts it reads
// exactly as parseSlow would; FuzzFastPath checks that.
func parseFast(line []byte) (typ string, arg literal, ok bool) {
	open := bytes.IndexByte(line, '(')
	if open < 0 || line[len(line)-1] != ')' || !printableASCII(line) {
		return "", literal{}, false
	}
	typ, ok = fastTypes[string(line[:open])]
	if !ok {
		return "", literal{}, false
	}
	arg, ok = fastLiteral(string(line[open+1 : len(line)-1]))
	return typ, arg, ok
}

// fastTypes maps the conversion spellings parseFast knows to type names.
var fastTypes = map[string]string{
	"[]byte": "[]byte", "string": "string", "bool": "bool", "byte": "byte", "rune": "rune",
	"int": "int", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
	"uint": "uint", "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
	"float32": "float32", "float64": "float64",
	"math.Float32frombits": "float32-bits", "math.Float64frombits": "float64-bits",
}

func printableASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// fastLiteral classifies s as one literal token, or reports ok=false.
func fastLiteral(s string) (literal, bool) {
	switch {
	case s == "":
		return literal{}, false
	case s == "true" || s == "false":
		return literal{token.IDENT, s}, true
	case s == "NaN" || s == "+Inf" || s == "-Inf":
		return literal{token.FLOAT, s}, true
	case s[0] == '"' || s[0] == '\'':
		// A string or character literal that unquotes cleanly is exactly one
		// token: it has no unescaped closing quote inside and only escapes
		// the scanner also accepts.
		if len(s) < 2 || s[len(s)-1] != s[0] {
			return literal{}, false
		}
		if s[0] == '"' {
			if _, err := strconv.Unquote(s); err != nil {
				return literal{}, false
			}
			return literal{token.STRING, s}, true
		}
		// Exactly one character (strconv.Unquote would take '').
		_, _, tail, err := strconv.UnquoteChar(s[1:len(s)-1], '\'')
		if err != nil || tail != "" || len(s) == 2 {
			return literal{}, false
		}
		return literal{token.CHAR, s}, true
	}
	digits := s
	if s[0] == '-' {
		digits = s[1:]
	}
	if kind := numberKind(digits); kind != token.ILLEGAL {
		return literal{kind, s}, true
	}
	return literal{}, false
}

// numberKind recognizes unsigned decimal integers without leading zeros,
// lowercase hex integers, and decimal floats with digits on both sides of the
// point and an optional exponent. Anything else is ILLEGAL (left to go/parser).
func numberKind(s string) token.Token {
	if len(s) > 2 && s[0] == '0' && s[1] == 'x' {
		if span(s[2:], isHex) == len(s)-2 {
			return token.INT
		}
		return token.ILLEGAL
	}
	n := span(s, isDigit)
	switch {
	case n == 0:
		return token.ILLEGAL
	case n == len(s):
		if s[0] == '0' && n > 1 {
			return token.ILLEGAL // octal
		}
		return token.INT
	}
	rest := s[n:]
	if rest[0] == '.' {
		m := span(rest[1:], isDigit)
		if m == 0 {
			return token.ILLEGAL
		}
		rest = rest[1+m:]
	}
	if rest == "" {
		return token.FLOAT
	}
	if rest[0] != 'e' {
		return token.ILLEGAL
	}
	rest = rest[1:]
	if rest != "" && (rest[0] == '+' || rest[0] == '-') {
		rest = rest[1:]
	}
	if m := span(rest, isDigit); m == 0 || m != len(rest) {
		return token.ILLEGAL
	}
	return token.FLOAT
}

func span(s string, f func(byte) bool) int {
	for i := 0; i < len(s); i++ {
		if !f(s[i]) {
			return i
		}
	}
	return len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || 'a' <= c && c <= 'f' }
