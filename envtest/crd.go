package envtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/codec"
)

// crdDoc is one CustomResourceDefinition read from a manifest.
type crdDoc struct {
	name   string
	source string // where it was read, for errors
	json   []byte // the document as JSON
}

// fieldManager owns the fields InstallCRDs applies.
const fieldManager = "kubewire-envtest"

// InstallCRDs installs CustomResourceDefinitions from manifests (YAML or
// JSON; a YAML manifest may hold several documents, and documents of
// other kinds are skipped) and returns when every one is served: the
// definition is Established, discovery lists each served version's
// resource, and a list of each answers (package client/crd does the
// work). An installed definition is updated (server-side apply, forced,
// by field manager "kubewire-envtest"). It blocks until then,
// Options.StartTimeout per definition, or ctx's end; errors name the
// definition and the server's answer.
func (e *Env) InstallCRDs(ctx context.Context, manifests ...[]byte) error {
	crds, err := readCRDs(manifests, nil)
	if err != nil {
		return e.errorf("%w", err)
	}
	return e.installCRDs(ctx, crds)
}

func (e *Env) installCRDs(ctx context.Context, crds []crdDoc) error {
	start := time.Now()
	c, err := client.New(e.Config())
	if err != nil {
		return e.errorf("%w", err)
	}
	defer c.CloseIdleConnections()
	manifests := make([][]byte, len(crds))
	for i, d := range crds {
		manifests[i] = d.json
	}
	if err := crd.Install(ctx, c, manifests, crd.Options{FieldManager: fieldManager, Timeout: e.opts.StartTimeout}); err != nil {
		return e.errorf("install CustomResourceDefinitions: %w", err)
	}
	fmt.Fprintf(e.log, "envtest %s: %d CustomResourceDefinitions served in %s\n", e.name, len(crds), since(start))
	return nil
}

// readCRDs reads the CustomResourceDefinitions of manifests and of the
// files and folders in paths (a folder's *.yaml, *.yml and *.json files,
// not its subfolders).
func readCRDs(manifests [][]byte, paths []string) ([]crdDoc, error) {
	var out []crdDoc
	for i, m := range manifests {
		docs, err := parseCRDs(m, fmt.Sprintf("manifest %d", i))
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	for _, p := range paths {
		files := []string{p}
		if fi, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("CRD path: %w", err)
		} else if fi.IsDir() {
			entries, err := os.ReadDir(p)
			if err != nil {
				return nil, fmt.Errorf("CRD path: %w", err)
			}
			files = files[:0]
			for _, e := range entries {
				switch filepath.Ext(e.Name()) {
				case ".yaml", ".yml", ".json":
					if !e.IsDir() {
						files = append(files, filepath.Join(p, e.Name()))
					}
				}
			}
		}
		var found []crdDoc
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, fmt.Errorf("CRD path: %w", err)
			}
			docs, err := parseCRDs(b, f)
			if err != nil {
				return nil, err
			}
			found = append(found, docs...)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("CRD path %s: no CustomResourceDefinition found", p)
		}
		out = append(out, found...)
	}
	return out, nil
}

// parseCRDs splits a manifest into YAML documents and keeps the
// CustomResourceDefinitions.
func parseCRDs(manifest []byte, source string) ([]crdDoc, error) {
	var out []crdDoc
	for i, doc := range yamlDocuments(manifest) {
		where := source
		if i > 0 {
			where = fmt.Sprintf("%s, document %d", source, i+1)
		}
		j, err := codec.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if t := strings.TrimSpace(string(j)); t == "null" || t == "" {
			continue // comments only
		}
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := codec.DecodeJSON(j, &head); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if head.Kind != "CustomResourceDefinition" {
			continue
		}
		if head.APIVersion != "apiextensions.k8s.io/v1" {
			return nil, fmt.Errorf("%s: CustomResourceDefinition in %s: only apiextensions.k8s.io/v1 is served since Kubernetes 1.22", where, head.APIVersion)
		}
		d := crdDoc{name: head.Metadata.Name, source: where, json: j}
		if d.name == "" {
			return nil, fmt.Errorf("%s: CustomResourceDefinition without metadata.name", where)
		}
		out = append(out, d)
	}
	return out, nil
}

// yamlDocuments splits a YAML stream at its "---" separator lines.
func yamlDocuments(b []byte) [][]byte {
	var docs [][]byte
	var cur strings.Builder
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "---"); ok {
			if r := strings.TrimSpace(rest); r == "" || strings.HasPrefix(r, "#") {
				docs = append(docs, []byte(cur.String()))
				cur.Reset()
				continue
			}
		}
		cur.WriteString(line)
	}
	return append(docs, []byte(cur.String()))
}
