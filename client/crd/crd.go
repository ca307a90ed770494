package crd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
)

// ErrNamesNotAccepted is matched by the error of a definition whose
// names the server refused (NamesAccepted=False), for example a plural
// or short name another definition of the group already uses.
var ErrNamesNotAccepted = errors.New("names not accepted")

// DefaultFieldManager is the field manager of Install's applies unless
// Options.FieldManager says otherwise.
const DefaultFieldManager = "kubewire-crd-install"

// DefaultTimeout bounds Install's wait for each definition unless
// Options.Timeout says otherwise.
const DefaultTimeout = 2 * time.Minute

// Options are the options of Install. The zero value applies as
// "kubewire-crd-install", taking over fields other managers own, and
// waits up to DefaultTimeout for each definition.
type Options struct {
	// FieldManager owns the applied fields.
	FieldManager string
	// NoForce makes a field another manager owns a conflict (ErrConflict)
	// instead of taking it over.
	NoForce bool
	// Timeout bounds the wait for each definition to be served.
	Timeout time.Duration
}

// Parse decodes the CustomResourceDefinitions of manifests: YAML or JSON
// documents, separated by "---" lines. Empty documents are skipped; a
// document of another kind is an error.
func Parse(manifests ...[]byte) ([]*apiextv1.CustomResourceDefinition, error) {
	docs, err := documents(manifests)
	if err != nil {
		return nil, err
	}
	out := make([]*apiextv1.CustomResourceDefinition, 0, len(docs))
	for _, d := range docs {
		var crd apiextv1.CustomResourceDefinition
		if err := codec.DecodeJSON(d.json, &crd); err != nil {
			return nil, fmt.Errorf("crd: %s: %w", d.name, err)
		}
		out = append(out, &crd)
	}
	return out, nil
}

// document is one manifest document as JSON.
type document struct {
	name string // metadata.name
	json []byte
}

func documents(manifests [][]byte) ([]document, error) {
	var out []document
	for i, m := range manifests {
		for j, y := range codec.SplitYAMLDocuments(m) {
			if isEmpty(y) {
				continue
			}
			js, err := codec.YAMLToJSON(y)
			if err != nil {
				return nil, fmt.Errorf("crd: manifest %d, document %d: %w", i, j, err)
			}
			var head struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
				Metadata   struct {
					Name string `json:"name"`
				} `json:"metadata"`
			}
			if err := json.Unmarshal(js, &head); err != nil {
				return nil, fmt.Errorf("crd: manifest %d, document %d: %w", i, j, err)
			}
			if head.APIVersion != "apiextensions.k8s.io/v1" || head.Kind != "CustomResourceDefinition" {
				return nil, fmt.Errorf("crd: manifest %d, document %d is a %s %s, not an apiextensions.k8s.io/v1 CustomResourceDefinition", i, j, head.APIVersion, head.Kind)
			}
			if head.Metadata.Name == "" {
				return nil, fmt.Errorf("crd: manifest %d, document %d has no metadata.name", i, j)
			}
			out = append(out, document{name: head.Metadata.Name, json: js})
		}
	}
	return out, nil
}

// isEmpty reports whether a YAML document holds only comments and space.
func isEmpty(doc []byte) bool {
	for _, line := range bytes.Split(doc, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' {
			return false
		}
	}
	return true
}

// Install applies the CustomResourceDefinitions of manifests (see Parse)
// and waits until each is served; see the package doc. It returns the
// first error; definitions applied before it stay.
func Install(ctx context.Context, c *client.Client, manifests [][]byte, opts Options) error {
	docs, err := documents(manifests)
	if err != nil {
		return err
	}
	bodies := make([]*unstructured.Unstructured, len(docs))
	for i, d := range docs {
		bodies[i] = new(unstructured.Unstructured)
		if err := bodies[i].UnmarshalJSON(d.json); err != nil {
			return fmt.Errorf("crd: %s: %w", d.name, err)
		}
		delete(bodies[i].Object, "status")
	}
	return install(ctx, c, bodies, opts)
}

// InstallObjects is Install for typed definitions (their status is not
// sent).
func InstallObjects(ctx context.Context, c *client.Client, crds []*apiextv1.CustomResourceDefinition, opts Options) error {
	bodies := make([]*unstructured.Unstructured, len(crds))
	for i, crd := range crds {
		b, err := json.Marshal(crd)
		if err != nil {
			return fmt.Errorf("crd: %s: %w", crd.Name, err)
		}
		u := new(unstructured.Unstructured)
		if err := u.UnmarshalJSON(b); err != nil {
			return fmt.Errorf("crd: %s: %w", crd.Name, err)
		}
		delete(u.Object, "status")
		u.SetAPIVersion("apiextensions.k8s.io/v1")
		u.SetKind("CustomResourceDefinition")
		bodies[i] = u
	}
	return install(ctx, c, bodies, opts)
}

func install(ctx context.Context, c *client.Client, bodies []*unstructured.Unstructured, opts Options) error {
	manager := opts.FieldManager
	if manager == "" {
		manager = DefaultFieldManager
	}
	crds := client.For[*apiextv1.CustomResourceDefinition](c)
	applied := make([]*apiextv1.CustomResourceDefinition, len(bodies))
	for i, u := range bodies {
		got, err := crds.Apply(ctx, u, client.ApplyOptions{FieldManager: manager, Force: !opts.NoForce})
		if err != nil {
			return fmt.Errorf("crd: apply %s: %w", u.GetName(), err)
		}
		applied[i] = got
	}
	c.InvalidateDiscovery()
	for _, crd := range applied {
		if err := waitServed(ctx, c, crd, opts); err != nil {
			return err
		}
	}
	return nil
}
