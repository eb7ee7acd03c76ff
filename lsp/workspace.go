package lsp

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// rootsOf returns the workspace folders of an initialize request as clean
// absolute paths with symlinks resolved.
func rootsOf(p protocol.InitializeParams) []string {
	var uris []protocol.DocumentURI
	for _, f := range p.WorkspaceFolders {
		uris = append(uris, f.URI)
	}
	if len(uris) == 0 && p.RootURI != "" {
		uris = append(uris, p.RootURI)
	}
	var roots []string
	for _, u := range uris {
		if p, err := uriPath(u); err == nil {
			roots = append(roots, resolve(p))
		}
	}
	if len(roots) == 0 && p.RootPath != "" {
		roots = append(roots, resolve(p.RootPath))
	}
	return roots
}

// uriPath turns a file:// URI into a clean absolute path.
func uriPath(u protocol.DocumentURI) (string, error) {
	pu, err := url.Parse(string(u))
	if err != nil {
		return "", fmt.Errorf("lsp: bad URI %q: %w", u, err)
	}
	if pu.Scheme != "file" {
		return "", fmt.Errorf("lsp: %q is not a file URI", u)
	}
	if !filepath.IsAbs(pu.Path) {
		return "", fmt.Errorf("lsp: %q is not an absolute path", u)
	}
	return filepath.Clean(pu.Path), nil
}

// pathURI turns an absolute path into a file:// URI.
func pathURI(p string) protocol.DocumentURI {
	return protocol.DocumentURI((&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String())
}

// resolve returns p with symlinks resolved as far as the file exists.
func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if dir := filepath.Dir(p); dir != p {
		return filepath.Join(resolve(dir), filepath.Base(p))
	}
	return p
}

// workspacePath turns a command argument into a path inside a workspace
// folder, refusing anything else: other schemes, ../ escapes, and symlinks
// that lead out of the workspace.
func (s *Server) workspacePath(u string) (string, error) {
	p, err := uriPath(protocol.DocumentURI(u))
	if err != nil {
		return "", invalidParams("%v", err)
	}
	real := resolve(p)
	s.mu.Lock()
	roots := s.roots
	s.mu.Unlock()
	for _, r := range roots {
		if real == r || strings.HasPrefix(real, r+string(filepath.Separator)) {
			return p, nil
		}
	}
	return "", invalidParams("lsp: %s is outside the workspace", u)
}

// readFile returns the text of an open document, or the file on disk.
func (s *Server) readFile(path string) (string, error) {
	s.mu.Lock()
	text, ok := s.open[path]
	s.mu.Unlock()
	if ok {
		return text, nil
	}
	b, err := os.ReadFile(path)
	return string(b), err
}
