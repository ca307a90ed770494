package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/internal/codegen/load"
)

// output is every file a run writes, by path, and the folders it owns:
// there, a generated file (one whose header says kubewire-gen wrote it)
// that the run did not produce is stale and removed. In the CRD folder,
// a run owns the files of the groups it generated (<group>_*.yaml), so
// that runs for packages of other groups sharing the folder keep theirs.
type output struct {
	files map[string][]byte
	owned []ownedDir
}

// ownedDir is a folder whose generated files with the extension ext
// (and, when prefixes is set, a name starting with one of them) belong
// to this run.
type ownedDir struct {
	dir, ext string
	prefixes []string
}

func (o *output) own(dir, ext string, prefixes ...string) {
	o.owned = append(o.owned, ownedDir{dir, ext, prefixes})
}

func (d ownedDir) owns(name string) bool {
	if !strings.HasSuffix(name, d.ext) {
		return false
	}
	if len(d.prefixes) == 0 {
		return true
	}
	for _, p := range d.prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// write writes the files whose content changed (so that a run on
// unchanged input touches nothing) and removes stale generated files.
func (o *output) write() error {
	paths := make([]string, 0, len(o.files))
	for p := range o.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, o.files[p]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, o.files[p], 0o644); err != nil {
			return err
		}
	}
	for _, d := range o.owned {
		entries, err := os.ReadDir(d.dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			p := filepath.Join(d.dir, e.Name())
			if e.IsDir() || !d.owns(e.Name()) || o.files[p] != nil {
				continue
			}
			if b, err := os.ReadFile(p); err == nil && generatedByUs(b) {
				if err := os.Remove(p); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// generatedByUs reports whether a Go or YAML file starts with
// kubewire-gen's header (after an optional license comment).
func generatedByUs(b []byte) bool {
	marker := []byte(strings.TrimPrefix(load.GeneratedMarker, "// "))
	for _, line := range bytes.Split(b, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if !bytes.HasPrefix(line, []byte("//")) && !bytes.HasPrefix(line, []byte("#")) {
			return false
		}
		if bytes.Contains(line, marker) {
			return true
		}
	}
	return false
}
