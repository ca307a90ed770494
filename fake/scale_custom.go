package fake

import (
	"fmt"
	"strings"
)

// The scale subresource of a custom resource reads and writes the JSON
// paths its definition names (CustomResourceScale), as kube-apiserver
// does: a missing status replicas reads as 0, a missing spec replicas is
// an internal error on get, and an update sets the spec path.

// customScale reads the scale fields of a custom resource's object.
func (r *resource) customScale(obj map[string]any) (spec int64, specFound bool, status int64, selector string, err error) {
	p := r.scalePaths
	if spec, specFound, err = nestedInt(obj, p.SpecReplicasPath); err != nil {
		return
	}
	if status, _, err = nestedInt(obj, p.StatusReplicasPath); err != nil {
		return
	}
	if p.LabelSelectorPath != "" {
		v, ok := nestedValue(obj, p.LabelSelectorPath)
		if s, isString := v.(string); ok && isString {
			selector = s
		} else if ok && v != nil {
			err = fmt.Errorf("%s accessor error: %v is of the type %T, expected string", p.LabelSelectorPath, v, v)
		}
	}
	return
}

func splitPath(path string) []string { return strings.Split(strings.TrimPrefix(path, "."), ".") }

func nestedValue(obj map[string]any, path string) (any, bool) {
	var cur any = obj
	for _, f := range splitPath(path) {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[f]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func nestedInt(obj map[string]any, path string) (int64, bool, error) {
	v, ok := nestedValue(obj, path)
	if !ok || v == nil {
		return 0, false, nil
	}
	switch n := v.(type) {
	case int64:
		return n, true, nil
	case float64:
		if n == float64(int64(n)) {
			return int64(n), true, nil
		}
	}
	return 0, false, fmt.Errorf("%s accessor error: %v is of the type %T, expected int64", path, v, v)
}

// setNestedInt sets the integer at path, creating the maps on the way.
func setNestedInt(obj map[string]any, path string, v int64) error {
	fields := splitPath(path)
	cur := obj
	for _, f := range fields[:len(fields)-1] {
		next, ok := cur[f]
		if !ok || next == nil {
			m := map[string]any{}
			cur[f] = m
			cur = m
			continue
		}
		m, ok := next.(map[string]any)
		if !ok {
			return fmt.Errorf("value cannot be set because %s is not a map", path)
		}
		cur = m
	}
	cur[fields[len(fields)-1]] = v
	return nil
}
