package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxLines is the budget of the operator's hand-written code: fewer
// lines than the same operator takes on controller-runtime (123).
const maxLines = 120

// The operator's hand-written code, counted as cloc counts code (lines
// that are neither blank nor only a comment): every .go file of the
// example except tests, files kubewire-gen wrote ("Code generated ...
// DO NOT EDIT.") and the fake-server demonstration that stands for what
// a cluster and kubectl do (demo.go, and demo_off.go, its stand-in in a
// build without it). README.md must state the count.
func TestLineCount(t *testing.T) {
	counts := map[string]int{}
	total := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || path == "demo.go" || path == "demo_off.go" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if generated.Match(b) {
			return nil
		}
		n := codeLines(b)
		counts[path] = n
		total += n
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for path, n := range counts {
		t.Logf("%4d %s", n, path)
	}
	t.Logf("%4d hand-written lines in all (budget %d)", total, maxLines)
	fmt.Printf("operator: %d hand-written lines of code\n", total)
	if total > maxLines {
		t.Errorf("the operator takes %d hand-written lines, over the budget of %d", total, maxLines)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("**%d lines**", total); !bytes.Contains(readme, []byte(want)) {
		t.Errorf("README.md does not state the count %s", want)
	}
}

var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// codeLines counts the lines that are neither blank nor only a //
// comment (the example has no /* */ comments).
func codeLines(b []byte) int {
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "//") {
			n++
		}
	}
	return n
}
