package jsparse

import (
	"testing"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

func FuzzParse(f *testing.F) {
	f.Add("var a = 1, b = [2, 3];")
	f.Add("function f(x, ...rest) { return x * 2 + rest.length }")
	f.Add("if (a === b) { c() } else { d = {k: 'v', n: null} }")
	f.Add("for (let i = 0; i < 10; i++) { console.log(`i=${i}`) }")
	f.Add("try { JSON.parse(s) } catch (e) { report(e) } finally { done() }")
	f.Add("const g = async (x) => await fetch(x); class A extends B { get y() { return 1 } }")
	f.Fuzz(func(t *testing.T, src string) {
		ast, err := js.Parse(parse.NewInputString(src), js.Options{})
		if err != nil {
			return
		}
		_ = ast.String()
		_ = ast.JS()
	})
}
