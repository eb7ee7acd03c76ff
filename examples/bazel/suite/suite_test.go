package suite_test

import (
	"testing"

	"example.com/fuzzbox-bazel-example/suite/suitetest"
)

func FuzzParse(f *testing.F) {
	f.Add("name=fuzzbox\nlevel=3")
	f.Fuzz(func(t *testing.T, text string) {
		suitetest.CheckParse(t, text)
	})
}
