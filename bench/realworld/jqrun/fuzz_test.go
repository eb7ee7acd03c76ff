package jqrun

import (
	"context"
	"testing"
	"time"

	"github.com/itchyny/gojq"
)

// FuzzQueryRun is gojq's own fuzz test (query_test.go): parse, compile, run
// on a null input with a 100 ms deadline and read every result, errors
// included. Upstream skips queries longer than 16 bytes; this one does not,
// so that the seeds, real jq filters, count.
func FuzzQueryRun(f *testing.F) {
	f.Add(".foo.bar // \"default\"")
	f.Add("[.[] | select(.age > 30) | .name] | sort")
	f.Add("{a: 1, b: [2, 3]} | to_entries | map(\"\\(.key)=\\(.value)\") | join(\",\")")
	f.Add("reduce range(5) as $i (0; . + $i) | tostring | ascii_downcase")
	f.Add("path(.a[0].b), [paths]")
	f.Add("def f(x): x * 2; [limit(3; range(10))] | map(f(.)) | add")
	f.Fuzz(func(t *testing.T, src string) {
		q, err := gojq.Parse(src)
		if err != nil {
			return
		}
		code, err := gojq.Compile(q)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		iter := code.RunWithContext(ctx, nil)
		for {
			if _, ok := iter.Next(); !ok {
				break
			}
		}
	})
}
