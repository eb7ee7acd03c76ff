module example.com/goflags

go 1.26
