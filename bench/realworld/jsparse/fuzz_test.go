package jsparse

import (
	"testing"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

func FuzzParse(f *testing.F) {
	f.Add("var a = 1, b = [2, 3];\nconsole.log(a + b.length);\n")
	f.Add("function f(x, ...rest) {\n  if (!x) {\n    return null;\n  }\n  return x * 2 + rest.length;\n}\n")
	f.Add("if (a === b) {\n  c();\n} else {\n  d = {k: 'v', n: null};\n}\n")
	f.Add("for (let i = 0; i < 10; i++) {\n  console.log(`i=${i}`);\n}\n")
	f.Add("try {\n  JSON.parse(s);\n} catch (e) {\n  report(e);\n} finally {\n  done();\n}\n")
	f.Add("const g = async (x) => await fetch(x);\nclass A extends B {\n  get y() { return 1; }\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		ast, err := js.Parse(parse.NewInputString(src), js.Options{})
		if err != nil {
			return
		}
		_ = ast.String()
		_ = ast.JS()
	})
}
