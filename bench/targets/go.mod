module fuzzbox.dev/bench/targets

go 1.26
