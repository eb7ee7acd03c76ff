package exprfilter

import (
	"testing"

	"github.com/expr-lang/expr"
)

func env() map[string]any {
	return map[string]any{
		"user": map[string]any{
			"name":  "Ada",
			"email": "ada@example.com",
			"age":   36,
			"roles": []any{"admin", "dev"},
		},
		"items": []any{
			map[string]any{"sku": "A-100", "price": 9.5, "qty": 2, "tags": []any{"book"}},
			map[string]any{"sku": "B-200", "price": 120.0, "qty": 1, "tags": []any{"tech", "sale"}},
			map[string]any{"sku": "C-300", "price": 3.25, "qty": 10, "tags": []any{}},
		},
		"country": "NL",
	}
}

func FuzzEval(f *testing.F) {
	f.Add(`user.age >= 18 && "admin" in user.roles`)
	f.Add(`items | filter(.qty > 0) | map(.price * .qty) | sum()`)
	f.Add(`len(user.name) > 2 ? upper(user.name) : "anonymous"`)
	f.Add(`let total = sum(items, .price * .qty); total > 50 ? total * 0.9 : total`)
	f.Add(`any(items, .sku startsWith "B" && "sale" in .tags) or user.email endsWith "@example.com"`)
	f.Add(`country in ["NL", "BE", "DE"] and count(items, .price < 10) >= 2`)
	f.Add(`{"skus": map(items, .sku), "first": first(items)?.sku ?? "none"}`)
	f.Fuzz(func(t *testing.T, src string) {
		vars := env()
		program, err := expr.Compile(src, expr.Env(vars))
		if err != nil {
			return
		}
		_, _ = expr.Run(program, vars)
	})
}
