module example.com/fuzzbox-bazel-example

go 1.26
