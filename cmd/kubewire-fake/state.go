package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
)

// The state file is a v1 List of every object the server stores, so -f
// reads it too. It is written by listing every served resource through
// the API and read back by creating the objects again (see createAll):
// the objects keep their names, labels, specs, statuses and managed
// fields, but get new uids, resource versions and creation timestamps.

// loadState creates the objects of a state file, if it exists. It
// returns how many objects it created.
func loadState(ctx context.Context, c *client.Client, path string) (int, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	ms, err := parseManifests(path, b)
	if err != nil {
		return 0, err
	}
	if err := createAll(ctx, c, ms); err != nil {
		return 0, fmt.Errorf("load state: %w", err)
	}
	return len(ms), nil
}

// saveState writes every stored object to path (through a temporary file
// and a rename). It returns how many objects it wrote.
func saveState(ctx context.Context, c *client.Client, path string) (int, error) {
	resources, err := c.ServerResources(ctx)
	if err != nil {
		return 0, err
	}
	seen := map[string]bool{}
	var items []any
	for _, res := range resources {
		key := res.Resource + "." + res.Group
		if seen[key] || !slices.Contains(res.Verbs, "list") || !slices.Contains(res.Verbs, "create") {
			continue // another version of a resource already listed, or nothing to re-create
		}
		seen[key] = true
		r, err := client.DynamicFor(ctx, c, res.Group, res.Version, res.Kind)
		if err != nil {
			return 0, err
		}
		list, err := r.List(ctx, client.ListOptions{})
		if err != nil {
			return 0, fmt.Errorf("list %s: %w", res.GroupVersionResource, err)
		}
		objs := list.Items
		slices.SortFunc(objs, func(a, b *unstructured.Unstructured) int {
			if a.GetNamespace() != b.GetNamespace() {
				return cmp.Compare(a.GetNamespace(), b.GetNamespace())
			}
			return cmp.Compare(a.GetName(), b.GetName())
		})
		for _, o := range objs {
			if o.GetKind() == "" {
				o.SetGroupVersionKind(res.Group, res.Version, res.Kind)
			}
			items = append(items, o.Object)
		}
	}
	b, err := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": items}, "", "  ")
	if err != nil {
		return 0, err
	}
	if err := writeFileAtomic(path, append(b, '\n'), 0o600); err != nil {
		return 0, err
	}
	return len(items), nil
}

// writeFileAtomic writes a file through a temporary file in the same
// folder and a rename, so a crash never leaves half a file.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename this removes nothing
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
