package patch

import (
	"fmt"
	"slices"
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
		merged := append([]any(nil), have...)
		for _, p := range patch {
			if indexOf(merged, p, "") < 0 {
				merged = append(merged, p)
			}
		}
		return ordered(merged, patch, have, ""), nil
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
	var plain []any // the patch's items without directives
	for _, p := range patch {
		pm, ok := p.(map[string]any)
		if !ok {
			return nil, invalid("list %s: item %v has no merge key %q", path, p, key)
		}
		switch pm["$patch"] {
		case "replace":
			out = nil
			continue
		case "delete":
			kv, ok := pm[key]
			if !ok {
				return nil, invalid("list %s: item does not contain the merge key %q", path, key)
			}
			if i := indexOf(out, map[string]any{key: kv}, key); i >= 0 {
				out = append(out[:i], out[i+1:]...)
			}
			continue
		}
		if _, ok := pm[key]; !ok {
			return nil, invalid("list %s: item does not contain the merge key %q", path, key)
		}
		plain = append(plain, pm)
	}
	original := append([]any(nil), out...)
	for _, pm := range plain {
		idx := indexOf(out, pm, key)
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
	return ordered(out, plain, original, key), nil
}

// ordered puts a merged list in kube-apiserver's order: the items the
// patch names in the patch's order, the others in the original's, the
// two interleaved so that an item the original had comes before a patch
// item only when the original had it before that item too (new items
// come before the original's remaining ones).
func ordered(merged, patch, original []any, key string) []any {
	var fromPatch, serverOnly []any
	for _, m := range merged {
		if indexOf(patch, m, key) >= 0 {
			fromPatch = append(fromPatch, m)
		} else {
			serverOnly = append(serverOnly, m)
		}
	}
	sortBy := func(items, order []any) {
		slices.SortStableFunc(items, func(a, b any) int { return indexOf(order, a, key) - indexOf(order, b, key) })
	}
	sortBy(fromPatch, patch)
	sortBy(serverOnly, original)
	out := make([]any, 0, len(merged))
	i, j := 0, 0
	for i < len(serverOnly) || j < len(fromPatch) {
		switch {
		case j >= len(fromPatch):
			out = append(out, serverOnly[i])
			i++
		case i >= len(serverOnly):
			out = append(out, fromPatch[j])
			j++
		default:
			li, ri := indexOf(original, serverOnly[i], key), indexOf(original, fromPatch[j], key)
			if li >= 0 && ri >= 0 && li < ri {
				out = append(out, serverOnly[i])
				i++
			} else {
				out = append(out, fromPatch[j])
				j++
			}
		}
	}
	return out
}

// indexOf finds an item in a list: by its merge key's value for lists
// of maps, by value for lists of primitives (key "").
func indexOf(list []any, item any, key string) int {
	if key == "" {
		for i, x := range list {
			if fmt.Sprint(x) == fmt.Sprint(item) {
				return i
			}
		}
		return -1
	}
	im, _ := item.(map[string]any)
	for i, x := range list {
		if xm, ok := x.(map[string]any); ok && fmt.Sprint(xm[key]) == fmt.Sprint(im[key]) {
			return i
		}
	}
	return -1
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
