package gjsonget

import (
	"testing"

	"github.com/tidwall/gjson"
)

func FuzzGet(f *testing.F) {
	f.Add(`{"name":{"first":"Tom","last":"Anderson"},"age":37,"children":["Sara","Alex","Jack"]}`, "children.#")
	f.Add(`{"friends":[{"first":"Dale","age":44},{"first":"Roger","age":68}]}`, `friends.#(age>45).first`)
	f.Add(`[{"a":1},{"a":2}]`, "#.a|@reverse")
	f.Add(`{"a":"b"}`, "@pretty")
	f.Fuzz(func(t *testing.T, doc, path string) {
		r := gjson.Get(doc, path)
		_ = r.String()
		r.ForEach(func(k, v gjson.Result) bool { return true })
	})
}
