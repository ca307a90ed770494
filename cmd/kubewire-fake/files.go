package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"sigs.k8s.io/yaml"
)

// manifest is one object read from a file, with where it came from for
// error messages.
type manifest struct {
	obj  *unstructured.Unstructured
	from string // "FILE" or "FILE#N" (the Nth document, from 1)
}

// readManifests reads the objects of files and folders (folders
// recursively, files ending in .yaml, .yml or .json, in name order).
// YAML files may hold several documents; a document whose kind ends in
// "List" with items contributes its items.
func readManifests(paths []string) ([]manifest, error) {
	var out []manifest
	for _, p := range paths {
		files, err := manifestFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			ms, err := parseManifests(f, b)
			if err != nil {
				return nil, err
			}
			out = append(out, ms...)
		}
	}
	return out, nil
}

// manifestFiles lists the files a -f argument names.
func manifestFiles(p string) ([]string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{p}, nil
	}
	var files []string
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".yaml", ".yml", ".json":
			if !d.IsDir() {
				files = append(files, path)
			}
		}
		return nil
	})
	slices.Sort(files)
	return files, err
}

// parseManifests splits a file into documents and decodes each.
func parseManifests(file string, b []byte) ([]manifest, error) {
	docs := codec.SplitYAMLDocuments(b)
	var out []manifest
	for i, doc := range docs {
		from := file
		if len(docs) > 1 {
			from = fmt.Sprintf("%s#%d", file, i+1)
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", from, err)
		}
		if t := bytes.TrimSpace(j); len(t) == 0 || string(t) == "null" {
			continue // an empty document
		}
		var u unstructured.Unstructured
		if err := json.Unmarshal(j, &u); err != nil {
			return nil, fmt.Errorf("%s: %w", from, err)
		}
		if u.GetKind() == "" || u.GetAPIVersion() == "" {
			return nil, fmt.Errorf("%s: an object needs apiVersion and kind", from)
		}
		if items, ok := u.Object["items"].([]any); ok && strings.HasSuffix(u.GetKind(), "List") {
			for k, it := range items {
				m, ok := it.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("%s: item %d is not an object", from, k)
				}
				item := &unstructured.Unstructured{Object: m}
				if item.GetKind() == "" || item.GetAPIVersion() == "" {
					return nil, fmt.Errorf("%s: item %d needs apiVersion and kind", from, k)
				}
				out = append(out, manifest{obj: item, from: fmt.Sprintf("%s item %d", from, k)})
			}
			continue
		}
		out = append(out, manifest{obj: &u, from: from})
	}
	return out, nil
}

// createOrder ranks objects as they must be created: definitions of
// custom resources, then namespaces, then everything else.
func createOrder(u *unstructured.Unstructured) int {
	group, _, kind := u.GroupVersionKind()
	switch {
	case group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition":
		return 0
	case group == "" && kind == "Namespace":
		return 1
	}
	return 2
}
