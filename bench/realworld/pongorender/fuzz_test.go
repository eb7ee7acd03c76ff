package pongorender

import (
	"testing"

	"github.com/flosch/pongo2/v6"
)

type user struct {
	Name  string
	Admin bool
}

func FuzzRender(f *testing.F) {
	f.Add("<h1>Hello, {{ user.Name|title }}!</h1>\n{% if items %}<ul>\n{% for item in items %}  <li>{{ forloop.Counter }}. {{ item|upper }}</li>\n{% endfor %}</ul>\n{% else %}<p>Nothing yet.</p>\n{% endif %}\n")
	f.Add("{% with total=price|floatformat:2 %}Total: {{ total }} €{% endwith %}\n{# a comment #}{% autoescape off %}{{ note }}{% endautoescape %}\n{% if user.Admin and not items %}admin{% elif user.Name == \"Ada\" %}hi{% endif %}\n")
	f.Add("{% macro card(title, body=\"\") %}<div>{{ title }}{% if body %}: {{ body|truncatechars:20 }}{% endif %}</div>{% endmacro %}\n{{ card(\"Grüße\", user.Name) }}\n{{ items|join:\", \"|default:\"-\" }} {% firstof missing user.Name %}\n")
	ctx := pongo2.Context{
		"user":  user{Name: "Ada", Admin: true},
		"items": []string{"tea", "milk"},
		"price": 3.5,
		"note":  "<b>new</b>",
	}
	f.Fuzz(func(t *testing.T, src string) {
		tpl, err := pongo2.FromString(src)
		if err != nil {
			return
		}
		_, _ = tpl.Execute(ctx)
	})
}
