module fuzzbox.dev/examples

go 1.26
