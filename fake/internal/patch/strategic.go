package patch

import (
	"fmt"
	"strings"
)

// MergeKey returns the merge key of the list at a field path (dotted
// field names from the object root, list items not named, e.g.
// "spec.containers" or "spec.template.spec.containers.env"), or "" when
// the list is replaced as a whole. SetList reports lists of primitives
// merged as sets (finalizers).
type MergeKey func(path string) (key string, setList bool)

// Strategic applies a strategic merge patch: like Merge, except that lists
// with a merge key merge item by item, "$patch: delete" in a list item
// removes the item, "$patch: replace" replaces a map or list, and
// "$deleteFromPrimitiveList/FIELD" removes values from a set list.
// "$setElementOrder" and "$retainKeys" directives are accepted and
// ignored.
func Strategic(doc, patch any, keys MergeKey) (any, error) {
	return strategic(doc, patch, "", keys)
}

func strategic(doc, patch any, path string, keys MergeKey) (any, error) {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch, nil
	}
	if pm["$patch"] == "replace" {
		out := make(map[string]any, len(pm))
		for k, v := range pm {
			if k != "$patch" {
				out[k] = v
			}
		}
		return out, nil
	}
	if pm["$patch"] == "delete" {
		return nil, nil
	}
	dm, _ := doc.(map[string]any)
	out := make(map[string]any, len(dm)+len(pm))
	for k, v := range dm {
		out[k] = v
	}
	for k, v := range pm {
		switch {
		case k == "$patch" || k == "$retainKeys" || strings.HasPrefix(k, "$setElementOrder/"):
			continue
		case strings.HasPrefix(k, "$deleteFromPrimitiveList/"):
			field := strings.TrimPrefix(k, "$deleteFromPrimitiveList/")
			remove, _ := v.([]any)
			have, _ := out[field].([]any)
			out[field] = filterOut(have, remove)
			continue
		}
		if v == nil {
			delete(out, k)
			continue
		}
		child := join(path, k)
		if list, ok := v.([]any); ok {
			merged, err := mergeList(out[k], list, child, keys)
			if err != nil {
				return nil, err
			}
			out[k] = merged
			continue
		}
		merged, err := strategic(out[k], v, child, keys)
		if err != nil {
			return nil, err
		}
		if merged == nil {
			delete(out, k)
		} else {
			out[k] = merged
		}
	}
	return out, nil
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func filterOut(have, remove []any) []any {
	out := make([]any, 0, len(have))
	for _, h := range have {
		drop := false
		for _, r := range remove {
			if fmt.Sprint(h) == fmt.Sprint(r) {
				drop = true
			}
		}
		if !drop {
			out = append(out, h)
		}
	}
	return out
}

func mergeList(doc any, patch []any, path string, keys MergeKey) (any, error) {
	key, setList := keys(path)
	have, _ := doc.([]any)
	if setList {
		out := append([]any(nil), have...)
		for _, p := range patch {
			found := false
			for _, h := range have {
				if fmt.Sprint(h) == fmt.Sprint(p) {
					found = true
				}
			}
			if !found {
				out = append(out, p)
			}
		}
		return out, nil
	}
	if key == "" {
		for _, p := range patch {
			if m, ok := p.(map[string]any); ok && m["$patch"] == "replace" {
				return []any{}, nil
			}
		}
		return patch, nil
	}
	out := append([]any(nil), have...)
	for _, p := range patch {
		pm, ok := p.(map[string]any)
		if !ok {
			return nil, invalid("list %s: item %v has no merge key %q", path, p, key)
		}
		if pm["$patch"] == "replace" {
			out = nil
			continue
		}
		kv, ok := pm[key]
		if !ok {
			return nil, invalid("list %s: item does not contain the merge key %q", path, key)
		}
		idx := -1
		for i, h := range out {
			if hm, ok := h.(map[string]any); ok && fmt.Sprint(hm[key]) == fmt.Sprint(kv) {
				idx = i
				break
			}
		}
		if pm["$patch"] == "delete" {
			if idx >= 0 {
				out = append(out[:idx], out[idx+1:]...)
			}
			continue
		}
		if idx < 0 {
			merged, err := strategic(nil, pm, path, keys)
			if err != nil {
				return nil, err
			}
			out = append(out, merged)
			continue
		}
		merged, err := strategic(out[idx], pm, path, keys)
		if err != nil {
			return nil, err
		}
		out[idx] = merged
	}
	return out, nil
}

// BuiltinMergeKey knows the merge keys of the common built-in list fields,
// matched on the last one or two path elements so that pod templates
// (spec.template.spec...) and job templates share them.
func BuiltinMergeKey(path string) (string, bool) {
	parts := strings.Split(path, ".")
	last := parts[len(parts)-1]
	parent := ""
	if len(parts) > 1 {
		parent = parts[len(parts)-2]
	}
	switch last {
	case "finalizers":
		return "", parent == "metadata"
	case "containers", "initContainers", "ephemeralContainers", "volumes", "env", "imagePullSecrets", "resourceClaims", "readinessGates":
		if last == "readinessGates" {
			return "conditionType", false
		}
		return "name", false
	case "volumeMounts":
		return "mountPath", false
	case "volumeDevices":
		return "devicePath", false
	case "ports":
		if parent == "spec" { // Service ports
			return "port", false
		}
		return "containerPort", false
	case "conditions":
		return "type", false
	case "ownerReferences":
		return "uid", false
	case "hostAliases":
		return "ip", false
	case "topologySpreadConstraints":
		return "topologyKey", false
	case "addresses":
		return "type", false
	case "taints":
		return "key", false
	}
	return "", false
}

// NoMergeKey treats every list as atomic (custom resources: strategic
// merge patch is not supported for them, and apply replaces lists).
func NoMergeKey(string) (string, bool) { return "", false }
