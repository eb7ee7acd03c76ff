module example.com/fuzzbox-bazel-example

go 1.26

require (
	github.com/Knetic/govaluate v3.0.0+incompatible
	github.com/fuzzbox/fuzzbox v0.0.0
)

replace github.com/fuzzbox/fuzzbox => ../..
