package driver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/fuzzbox/fuzzbox/event"
)

// report turns the replay's coverage into the profile, the HTML report and
// the per-file and per-function figures.
func (r *coverRun) report(rep *replay) (*CoverReport, error) {
	p := r.p
	// The files named are the user's, relative to where the command runs
	// (go test -coverprofile's); go tool cover runs in the package.
	profile := r.userPath(r.opts.Profile)
	if profile == "" {
		profile = filepath.Join(r.tmp, "cover.out")
	}
	if _, err := goOutput(r.ctx, r.cfg.Dir, "tool", "covdata", "textfmt", "-i="+rep.coverDir, "-o="+profile); err != nil {
		return nil, fmt.Errorf("go tool covdata textfmt: %w", err)
	}
	cr := &CoverReport{Package: p.ImportPath, Target: rep.target, CoverPkg: r.coverpkg(), Entries: rep.entries(), Profile: r.opts.Profile}
	// go tool cover finds the sources with go list, so it runs in the module.
	html := r.opts.HTML
	if html == "" && r.opts.DefaultHTML {
		html = filepath.Join(os.TempDir(), "fuzzbox-cover-"+path.Base(p.ImportPath)+"-"+rep.target+".html")
	}
	if html != "" {
		if _, err := goOutput(r.ctx, p.Dir, "tool", "cover", "-html="+profile, "-o="+r.userPath(html)); err != nil {
			return nil, fmt.Errorf("go tool cover -html: %w", err)
		}
		cr.HTML = html
	}
	table, err := goOutput(r.ctx, p.Dir, "tool", "cover", "-func="+profile)
	if err != nil {
		return nil, fmt.Errorf("go tool cover -func: %w", err)
	}
	cr.FuncTable = string(table)
	blocks, err := readProfile(profile)
	if err != nil {
		return nil, err
	}
	if cr.Files, err = r.fileCovers(blocks); err != nil {
		return nil, err
	}
	cr.Files = nonNil(cr.Files) // [] in JSON for a package without statements
	for _, f := range cr.Files {
		cr.Statements += f.Statements
		cr.Covered += f.Covered
	}
	if cr.Statements > 0 {
		cr.Percent = 100 * float64(cr.Covered) / float64(cr.Statements)
	}
	if r.opts.PerEntry {
		cr.Entries.PerEntry = r.attribute(rep, cr.Files)
	}
	return cr, nil
}

// userPath returns a file name the user gave, made absolute from the
// directory the command runs in (Config.Dir), or "".
func (r *coverRun) userPath(name string) string {
	if name == "" || filepath.IsAbs(name) {
		return name
	}
	if dir, err := filepath.Abs(r.cfg.Dir); err == nil {
		return filepath.Join(dir, name)
	}
	return name
}

// A block is one line of a text coverage profile.
type block struct {
	file                               string // import path and file name
	startLine, startCol, endLine, endC int
	stmts, count                       int
}

var blockRE = regexp.MustCompile(`^(.+):(\d+)\.(\d+),(\d+)\.(\d+) (\d+) (\d+)$`)

// readProfile parses a text coverage profile ("mode: count" and blocks).
func readProfile(name string) ([]block, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var bs []block
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		m := blockRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue // the mode line
		}
		n := make([]int, 6)
		for i := range n {
			n[i], _ = strconv.Atoi(m[i+2])
		}
		bs = append(bs, block{m[1], n[0], n[1], n[2], n[3], n[4], n[5]})
	}
	return bs, sc.Err()
}

// fileCovers sums the blocks per file and per function.
func (r *coverRun) fileCovers(blocks []block) ([]FileCover, error) {
	byFile := map[string][]block{}
	for _, b := range blocks {
		byFile[b.file] = append(byFile[b.file], b)
	}
	dirs, err := r.packageDirs(byFile)
	if err != nil {
		return nil, err
	}
	var files []FileCover
	for name, bs := range byFile {
		fc := FileCover{File: name}
		if dir, ok := dirs[path.Dir(name)]; ok {
			fc.Path = filepath.Join(dir, path.Base(name))
			fc.Funcs = funcExtents(fc.Path)
		}
		for _, b := range bs {
			fc.Blocks = append(fc.Blocks, BlockCover{b.startLine, b.startCol, b.endLine, b.endC, b.stmts, b.count})
			fc.Statements += b.stmts
			f := fc.funcOf(b)
			if f != nil {
				f.Statements += b.stmts
			}
			if b.count > 0 {
				fc.Covered += b.stmts
				if f != nil {
					f.Covered += b.stmts
				}
			}
		}
		files = append(files, fc)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].File < files[j].File })
	return files, nil
}

// funcOf returns the function holding b, or nil.
func (fc *FileCover) funcOf(b block) *FuncCover {
	for i := range fc.Funcs {
		f := &fc.Funcs[i]
		if f.Line <= b.startLine && b.startLine <= f.EndLine {
			return f
		}
	}
	return nil
}

// packageDirs maps the import paths of the profiled files to directories.
func (r *coverRun) packageDirs(byFile map[string][]block) (map[string]string, error) {
	var pkgs []string
	seen := map[string]bool{}
	for name := range byFile {
		if d := path.Dir(name); !seen[d] {
			seen[d] = true
			pkgs = append(pkgs, d)
		}
	}
	out, err := goOutput(r.ctx, r.p.Dir, append([]string{"list", "-e", "-json=ImportPath,Dir", "--"}, pkgs...)...)
	if err != nil {
		return nil, fmt.Errorf("go list of the measured packages: %w", err)
	}
	dirs := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var lp struct{ ImportPath, Dir string }
		if err := dec.Decode(&lp); err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		dirs[lp.ImportPath] = lp.Dir
	}
	return dirs, nil
}

// funcExtents returns the functions declared in a Go file, named as go
// tool cover -func names them. A file that does not parse has none.
func funcExtents(file string) []FuncCover {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []FuncCover
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		out = append(out, FuncCover{Name: funcName(fd), Line: fset.Position(fd.Pos()).Line, EndLine: fset.Position(fd.End()).Line})
	}
	return out
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if ix, ok := t.(*ast.IndexListExpr); ok {
		t = ix.X
	}
	if star, ok := t.(*ast.StarExpr); ok {
		return "(*" + typeName(star.X) + ")." + fd.Name.Name
	}
	return typeName(t) + "." + fd.Name.Name
}

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return typeName(e.X)
	case *ast.IndexListExpr:
		return typeName(e.X)
	}
	return "?"
}

// attribute replays each entry alone (up to MaxEntryReplays) and records,
// on every function it reaches, the entry's name. It returns how many
// entries it replayed.
func (r *coverRun) attribute(rep *replay, files []FileCover) int {
	names := append(append([]string(nil), rep.passed...), rep.failed...)
	if len(names) > MaxEntryReplays {
		names = names[:MaxEntryReplays]
	}
	n := 0
	for i, name := range names {
		prof := filepath.Join(r.tmp, fmt.Sprintf("entry%d.out", i))
		combined(r.ctx, testCmd(rep.dir, rep.bin, rep.user, "-test.run=^"+regexp.QuoteMeta(rep.target)+"$/^"+event.EntryPattern(name)+"$",
			"-test.coverprofile="+prof, "-test.gocoverdir="+r.tmp, "-test.timeout="+rep.limit.String())) // a failing entry still writes its profile
		blocks, err := readProfile(prof)
		if err != nil {
			continue
		}
		n++
		markEntry(files, blocks, name)
	}
	return n
}

// markEntry adds name to the functions that blocks with counts reach.
func markEntry(files []FileCover, blocks []block, name string) {
	byName := map[string]*FileCover{}
	for i := range files {
		byName[files[i].File] = &files[i]
	}
	marked := map[*FuncCover]bool{}
	for _, b := range blocks {
		fc := byName[b.file]
		if b.count == 0 || fc == nil {
			continue
		}
		if f := fc.funcOf(b); f != nil && !marked[f] {
			marked[f] = true
			f.Entries = append(f.Entries, name)
		}
	}
}

// Summary writes what fuzzbox cover prints: the replay, and the bad
// entries.
func (cr *CoverReport) Summary() string {
	var b strings.Builder
	e := cr.Entries
	fmt.Fprintf(&b, "%s: replayed %d corpus entries (%d seeds, %d from the generated corpus): %d passed, %d failed\n",
		cr.Target, len(e.Passed)+len(e.Failed), e.Seeds, e.Generated, len(e.Passed), len(e.Failed))
	if len(e.Failed) > 0 {
		fmt.Fprintf(&b, "failing entries (coverage counted): %s\n", strings.Join(e.Failed, " "))
	}
	if len(e.Crashed) > 0 {
		fmt.Fprintf(&b, "crashed entries (%d from the generated corpus; coverage not counted): %s\n",
			e.crashedGenerated, strings.Join(e.Crashed, " "))
	}
	for _, u := range e.Unreadable {
		fmt.Fprintf(&b, "unreadable generated-corpus entry (skipped): %s: %s\n", u.Name, u.Error)
	}
	if cr.Statements == 0 {
		fmt.Fprintf(&b, "coverage: [no statements] in %s\n", cr.CoverPkg) // as go test -cover says of a package of test files only
		return b.String()
	}
	fmt.Fprintf(&b, "coverage: %.1f%% of statements in %s\n", cr.Percent, cr.CoverPkg)
	return b.String()
}
