module example.com/targets

go 1.26
