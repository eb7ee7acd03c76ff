package driver

import "regexp"

// runSelects says whether go test's -run=pattern runs the top-level test
// name (with its seeds, for a fuzz test), as the testing package matches
// it: the pattern splits into alternatives at its top-level "|", each into
// elements at "/", and an alternative whose first element matches selects
// the test. An empty pattern selects every test.
func runSelects(pattern, name string) bool {
	if pattern == "" {
		return true
	}
	for _, alt := range splitTestPattern(pattern, '|') {
		if ok, _ := regexp.MatchString(splitTestPattern(alt, '/')[0], name); ok {
			return true
		}
	}
	return false
}

// skipSelects says whether go test's -skip=pattern leaves out the whole
// top-level test name: an alternative of one element that matches it (one
// of more elements skips only subtests).
func skipSelects(pattern, name string) bool {
	for _, alt := range splitTestPattern(pattern, '|') {
		if els := splitTestPattern(alt, '/'); len(els) == 1 && els[0] != "" {
			if ok, _ := regexp.MatchString(els[0], name); ok {
				return true
			}
		}
	}
	return false
}

// splitTestPattern splits a -run or -skip pattern at sep where it stands
// outside brackets and parentheses, unescaped, as the testing package's
// splitRegexp does.
func splitTestPattern(s string, sep byte) []string {
	var parts []string
	brackets, parens, from := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '[':
			brackets++
		case c == ']':
			brackets = max(brackets-1, 0) // an unmatched ']' is legal
		case c == '(' && brackets == 0:
			parens++
		case c == ')' && brackets == 0:
			parens--
		case c == '\\':
			i++
		case c == sep && brackets == 0 && parens == 0:
			parts = append(parts, s[from:i])
			from = i + 1
		}
	}
	return append(parts, s[from:])
}
