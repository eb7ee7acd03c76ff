module example.com/exit0

go 1.26
