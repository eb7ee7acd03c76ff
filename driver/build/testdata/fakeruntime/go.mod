module github.com/fuzzbox/fuzzbox

go 1.11
