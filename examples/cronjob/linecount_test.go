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

// tutorialLines are the hand-written lines of the kubebuilder book's
// multiversion CronJob project (docs/book/src/multiversion-tutorial/
// testdata/project in kubernetes-sigs/kubebuilder, the cronjob tutorial
// plus v2 and conversion), counted as cloc counts code (neither blank
// nor comment, /* */ blocks included): api/v1 and api/v2 (types,
// conversion, groupversion_info.go), cmd/main.go, internal/controller
// and internal/webhook/v1 and v2; not zz_generated.deepcopy.go, tests,
// nor test/utils (scaffolded e2e helpers, 197 more).
const tutorialLines = 990

// The example's hand-written code, counted the same way: every .go file
// except tests, files kubewire-gen wrote ("Code generated ... DO NOT
// EDIT.") and demo.go, the fake-server demonstration that stands for
// what a cluster and kubectl do. The goal is fewer lines than the
// tutorial; README.md states the count.
func TestLineCount(t *testing.T) {
	counts := map[string]int{}
	total := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || path == "demo.go" {
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
	t.Logf("%4d hand-written lines in all; the tutorial's: %d", total, tutorialLines)
	fmt.Printf("cronjob: %d hand-written lines of code (the kubebuilder tutorial: %d)\n", total, tutorialLines)
	if total >= tutorialLines {
		t.Errorf("the example takes %d hand-written lines, not fewer than the tutorial's %d", total, tutorialLines)
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
