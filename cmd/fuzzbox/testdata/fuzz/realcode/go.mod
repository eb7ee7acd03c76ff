module example.com/realcode

go 1.26
