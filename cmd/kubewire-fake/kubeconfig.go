package main

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"sigs.k8s.io/yaml"
)

// entryName names the cluster, user and context written into a
// kubeconfig.
const entryName = "kubewire-fake"

// writeKubeconfig makes path's kubeconfig point at the server: the
// kubewire-fake cluster (server URL and CA), user (bearer token) and
// context are added or replaced, and current-context is set to it. Other
// entries and fields of an existing file are kept, so pointing
// --kubeconfig at a shared file only adds to it. The file is written
// with mode 0600 (it holds the token) through a temporary file and a
// rename, so a reader never sees half of it.
func writeKubeconfig(path, serverURL string, caPEM []byte, token string) error {
	doc := map[string]any{}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	default:
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("kubeconfig %s: %w", path, err)
		}
		if doc == nil {
			doc = map[string]any{}
		}
	}
	doc["apiVersion"] = "v1"
	doc["kind"] = "Config"
	doc["current-context"] = entryName
	setNamed(doc, "clusters", "cluster", map[string]any{
		"server":                     serverURL,
		"certificate-authority-data": base64.StdEncoding.EncodeToString(caPEM),
	})
	setNamed(doc, "users", "user", map[string]any{"token": token})
	setNamed(doc, "contexts", "context", map[string]any{"cluster": entryName, "user": entryName})

	out, err := yaml.Marshal(doc)
	if err != nil {
		return err
	}
	return writeFileAtomic(path, out, 0o600)
}

// setNamed replaces or appends the entry called entryName in the list
// doc[list], whose entries are {name: ..., field: value}.
func setNamed(doc map[string]any, list, field string, value map[string]any) {
	entry := map[string]any{"name": entryName, field: value}
	items, _ := doc[list].([]any)
	for i, it := range items {
		if m, ok := it.(map[string]any); ok && m["name"] == entryName {
			items[i] = entry
			doc[list] = items
			return
		}
	}
	doc[list] = append(items, entry)
}
