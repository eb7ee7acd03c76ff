module example.com/fuzzboxonly

go 1.26
