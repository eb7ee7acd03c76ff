package driver

import (
	"context"

	"github.com/fuzzbox/fuzzbox/engine/build"
)

// sourceDict returns the source-literal dictionary of package p (its own
// literals, then its non-standard imports': build.PackageLiterals).
func sourceDict(ctx context.Context, p listedPkg) [][]byte {
	return build.PackageLiterals(ctx, build.LiteralSource{
		ImportPath: p.ImportPath, Dir: p.Dir,
		GoFiles: p.GoFiles, TestGoFiles: p.TestGoFiles, XTestGoFiles: p.XTestGoFiles,
		Imports: p.Imports, TestImports: p.TestImports, XTestImports: p.XTestImports,
	})
}
