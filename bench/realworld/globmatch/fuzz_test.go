package globmatch

import (
	"testing"

	"github.com/gobwas/glob"
)

func FuzzMatch(f *testing.F) {
	f.Add("*.go", "main.go")
	f.Add("src/**/*.{js,ts}", "src/app/index.ts")
	f.Add("docs/[a-c]?.md", "docs/b1.md")
	f.Add("/var/log/*/[!x]*.log", "/var/log/nginx/access.log")
	f.Add("{foo,bar}/baz/**", "bar/baz/qux/quux")
	f.Fuzz(func(t *testing.T, pattern, path string) {
		g, err := glob.Compile(pattern, '/')
		if err != nil {
			return
		}
		_ = g.Match(path)
	})
}
