package graphqlexec

import (
	"context"
	"testing"

	graphql "github.com/graph-gophers/graphql-go"
	"github.com/graph-gophers/graphql-go/example/starwars"
)

// quietLogger drops the log line for a resolver's panic, which the executor
// recovers and returns as an error.
type quietLogger struct{}

func (quietLogger) LogPanic(context.Context, interface{}) {}

// schema is parsed once, outside the fuzz test: go-118-fuzz-build (the
// go118 engine) runs the whole FuzzSchemaExec for every input, and parsing
// the schema there would make that engine fuzz a much slower function.
var schema = graphql.MustParseSchema(starwars.Schema, &starwars.Resolver{},
	graphql.MaxDepth(3), graphql.Logger(quietLogger{}))

// FuzzSchemaExec is the module's own fuzz test (fuzz_test.go, v1.9.0):
// validate the query against the Star Wars schema and, when it is valid,
// execute it.
func FuzzSchemaExec(f *testing.F) {
	f.Add(`{ hero { name } }`)
	f.Add(`{ hero(episode: EMPIRE) { name friends { name } } }`)
	f.Add(`query HeroFriends($ep: Episode = JEDI) { hero(episode: $ep) { name friendsConnection(first: 2) { totalCount } } }`)
	f.Add(`query HumanName($id: ID = "1000") { human(id: $id) { name height(unit: FOOT) } }`)
	f.Add(`mutation { createReview(episode: EMPIRE, review: { stars: 5, commentary: "Great!" }) { stars commentary } }`)
	f.Add(`query Search { search(text: "an") { __typename ... on Human { name height } ... on Droid { primaryFunction } } }`)
	f.Fuzz(func(t *testing.T, query string) {
		if errs := schema.Validate(query); len(errs) > 0 {
			return
		}
		_ = schema.Exec(context.Background(), query, "", nil)
	})
}
