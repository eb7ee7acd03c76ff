package regexmatch

import (
	"testing"
	"time"

	"github.com/dlclark/regexp2"
)

func FuzzMatch(f *testing.F) {
	f.Add(`^(\d{4})-(\d{2})-(\d{2})$`, "2020-10-07")
	f.Add(`(?<user>[a-z0-9._%+-]+)@(?<host>[a-z0-9.-]+\.[a-z]{2,})`, "mail ada@example.com today")
	f.Add(`\b(\w+)\s+\1\b`, "this is is a test")
	f.Add(`^(?:GET|POST|PUT) (/[^ ?]*)(?:\?([^ ]*))? HTTP/1\.[01]$`, "GET /index.html?q=go HTTP/1.1")
	f.Add(`(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{8,}`, "Passw0rdX")
	f.Add(`<(\w+)[^>]*>(.*?)</\1>`, "<b>bold</b> and <i>italic</i>")
	f.Add(`[\u0041-\u005A]+|\x2A{2,3}`, "ABC ***")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		re, err := regexp2.Compile(pattern, regexp2.ECMAScript)
		if err != nil {
			return
		}
		re.MatchTimeout = 20 * time.Millisecond
		m, err := re.FindStringMatch(text)
		for n := 0; m != nil && err == nil && n < 100; n++ {
			m, err = re.FindNextMatch(m)
		}
	})
}
