package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
)

// apply server-side applies every object of a YAML or JSON file
// (multi-document YAML too) as kubectl apply --server-side does.
func apply(ctx context.Context, k *cli, args []string) error {
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	file := fs.String("f", "", "YAML or JSON file of objects")
	manager := fs.String("field-manager", "kubectl", "field manager of the applied fields")
	force := fs.Bool("force-conflicts", false, "take over fields other managers own")
	namespace := k.namespaceFlag(fs)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *file == "" {
		return errors.New("apply: -f FILE is needed")
	}
	b, err := os.ReadFile(*file)
	if err != nil {
		return err
	}
	objs, err := decodeObjects(b)
	if err != nil {
		return fmt.Errorf("%s: %w", *file, err)
	}
	for _, u := range objs {
		group, version, kind := u.GroupVersionKind()
		m, err := k.c.Mapping(ctx, group, version, kind)
		if err != nil {
			return err
		}
		res := client.Dynamic(k.c, m.GroupVersionResource)
		if m.Namespaced {
			ns := u.GetNamespace()
			if ns == "" {
				ns = namespace()
			}
			if ns == "" { // -A
				ns = k.c.Namespace()
			}
			res = res.Namespace(ns)
		}
		if _, err := res.Apply(ctx, u, client.ApplyOptions{FieldManager: *manager, Force: *force}); err != nil {
			return err
		}
		fmt.Fprintf(k.out, "%s/%s serverside-applied\n", m.Resource, u.GetName())
	}
	return nil
}

// decodeObjects reads the objects of a JSON document or a YAML stream
// of documents separated by "---" lines.
func decodeObjects(b []byte) ([]*unstructured.Unstructured, error) {
	var out []*unstructured.Unstructured
	for i, doc := range codec.SplitYAMLDocuments(b) {
		j, err := codec.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		if t := bytes.TrimSpace(j); len(t) == 0 || string(t) == "null" {
			continue // an empty document, or only comments
		}
		u := &unstructured.Unstructured{}
		if err := json.Unmarshal(j, u); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		if u.GetKind() == "" || u.GetAPIVersion() == "" {
			return nil, fmt.Errorf("document %d: an object needs apiVersion and kind", i+1)
		}
		out = append(out, u)
	}
	return out, nil
}
