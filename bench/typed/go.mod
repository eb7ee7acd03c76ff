module fuzzbox.dev/bench/typed

go 1.26

require github.com/fuzzbox/fuzzbox v0.0.0

replace github.com/fuzzbox/fuzzbox => ../..
