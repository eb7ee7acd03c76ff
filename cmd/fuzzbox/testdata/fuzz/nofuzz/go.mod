module example.com/nofuzz

go 1.26
