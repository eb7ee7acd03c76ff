package main_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreCommit installs the hooks of .pre-commit-hooks.yaml with a real
// pre-commit (Debian's package) into a fresh repository and checks that a
// commit adding a bad f.Add is rejected with the diagnostic, a bad corpus
// file too, and that a clean commit passes.
func TestPreCommit(t *testing.T) {
	if _, err := exec.LookPath("pre-commit"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pre-commit is not installed (apt-get install pre-commit)")
		}
		t.Skip("pre-commit is not installed")
	}
	if testing.Short() {
		t.Skip("builds fuzzvet inside pre-commit; skipped with -short")
	}
	tmp := t.TempDir()
	env := hookEnv(t, tmp)
	hooks := filepath.Join(tmp, "hooks")
	copyTree(t, "../..", hooks)
	git(t, hooks, env, "init", "-q")
	git(t, hooks, env, "add", "-A")
	git(t, hooks, env, "commit", "-q", "-m", "fuzzbox working tree")
	rev := strings.TrimSpace(git(t, hooks, env, "rev-parse", "HEAD"))

	repo := filepath.Join(tmp, "repo")
	writeFile(t, filepath.Join(repo, "go.mod"), "module example.com/repo\n\ngo 1.26\n")
	writeFile(t, filepath.Join(repo, "p.go"), "package p\n")
	writeFile(t, filepath.Join(repo, ".pre-commit-config.yaml"), "repos:\n- repo: "+hooks+"\n  rev: "+rev+
		"\n  hooks:\n  - id: fuzzvet\n  - id: fuzzvet-corpus\n")
	git(t, repo, env, "init", "-q")
	run(t, repo, env, "pre-commit", "install")

	// A clean commit passes.
	writeFile(t, filepath.Join(repo, "p_test.go"), fuzzTest("uint8(5)"))
	git(t, repo, env, "add", "-A")
	if out, err := try(repo, env, "git", "commit", "-m", "clean"); err != nil {
		t.Fatalf("clean commit rejected: %v\n%s", err, out)
	}

	// A bad f.Add is rejected with the diagnostic.
	writeFile(t, filepath.Join(repo, "p_test.go"), fuzzTest("5"))
	git(t, repo, env, "add", "-A")
	out, err := try(repo, env, "git", "commit", "-m", "bad f.Add")
	if err == nil {
		t.Fatalf("commit with a bad f.Add was accepted:\n%s", out)
	}
	if want := "p_test.go:6:8: untyped constant 5 in f.Add has default type int, but fuzz argument n is uint8"; !strings.Contains(out, want) {
		t.Errorf("rejected commit output lacks %q:\n%s", want, out)
	}

	// A bad corpus file alone (no Go file changed) is rejected by the corpus
	// hook at its line.
	writeFile(t, filepath.Join(repo, "p_test.go"), fuzzTest("uint8(5)"))
	writeFile(t, filepath.Join(repo, "testdata/fuzz/FuzzP/seed"), "go test fuzz v1\nstring(\"x\")\n")
	git(t, repo, env, "add", "-A")
	out, err = try(repo, env, "git", "commit", "-m", "bad corpus")
	if err == nil {
		t.Fatalf("commit with a bad corpus file was accepted:\n%s", out)
	}
	if want := "testdata/fuzz/FuzzP/seed:2:1: corpus entry does not fit FuzzP"; !strings.Contains(out, want) ||
		!strings.Contains(out, "- hook id: fuzzvet-corpus") {
		t.Errorf("want %q from the fuzzvet-corpus hook:\n%s", want, out)
	}
}

func fuzzTest(seed string) string {
	return "package p\n\nimport \"testing\"\n\nfunc FuzzP(f *testing.F) {\n\tf.Add(" + seed +
		")\n\tf.Fuzz(func(t *testing.T, n uint8) {})\n}\n"
}

// hookEnv keeps pre-commit, git and go state in tmp but reuses the module and
// build caches so that no download is needed.
func hookEnv(t *testing.T, tmp string) []string {
	caches := strings.Fields(string(goCmd(t, ".", nil, "env", "GOMODCACHE", "GOCACHE")))
	return []string{
		"HOME=" + filepath.Join(tmp, "home"),
		"XDG_CACHE_HOME=" + filepath.Join(tmp, "cache"),
		"PRE_COMMIT_HOME=" + filepath.Join(tmp, "pre-commit"),
		"GOMODCACHE=" + caches[0], "GOCACHE=" + caches[1],
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_NOSYSTEM=1",
	}
}

// copyTree copies the files of src (without .git) to dst. In a linked
// worktree .git is a file naming the real repository: copied, it would make
// the "git init" and "git commit" of the copy commit into that repository.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.Name() == ".git" && !d.IsDir() {
			return nil
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o777); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o666)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func git(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	return run(t, dir, env, "git", args...)
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, err := try(dir, env, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

func try(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
