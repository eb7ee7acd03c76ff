package lsp_test

import (
	"context"
	"fmt"
	"net"
	"path/filepath"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/lsp"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Example serves a session over net.Pipe and asks for the code lenses of a
// fuzz test, as an editor does.
func Example() {
	ctx := context.Background()
	a, b := net.Pipe()
	go lsp.New(lsp.Options{}).Serve(ctx, a)
	ignore := func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) { return nil, nil }
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.AsyncHandler(jsonrpc2.HandlerWithError(ignore)))
	defer conn.Close()

	root, _ := filepath.Abs("testdata/planted")
	var init protocol.InitializeResult
	conn.Call(ctx, "initialize", protocol.InitializeParams{RootURI: protocol.DocumentURI("file://" + root)}, &init)
	fmt.Println(init.ServerInfo.Name, init.Capabilities.ExecuteCommandProvider.Commands)

	var lenses []protocol.CodeLens
	file := protocol.DocumentURI("file://" + filepath.Join(root, "parse_test.go"))
	conn.Call(ctx, "textDocument/codeLens", protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: file}}, &lenses)
	for _, l := range lenses {
		fmt.Printf("line %d: %s (%s)\n", l.Range.Start.Line+1, l.Command.Title, l.Command.Command)
	}
	conn.Call(ctx, "shutdown", nil, nil)
	conn.Notify(ctx, "exit", nil)
	// Output:
	// fuzzbox [fuzzbox.fuzz fuzzbox.stop fuzzbox.runSeeds fuzzbox.openReproducer fuzzbox.rerunEntry fuzzbox.showEntry fuzzbox.tests fuzzbox.coverage fuzzbox.coverageGaps fuzzbox.debugEntry fuzzbox.showGenerated fuzzbox.copyGenerated]
	// line 5: fuzz (fuzzbox.fuzz)
	// line 5: run seeds (fuzzbox.runSeeds)
}
