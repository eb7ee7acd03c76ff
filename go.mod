module github.com/fuzzbox/fuzzbox

go 1.26

require (
	github.com/sourcegraph/jsonrpc2 v0.2.3
	golang.org/x/tools v0.49.0
)

require (
	golang.org/x/mod v0.39.0 // indirect
	golang.org/x/sync v0.22.0 // indirect
)
