package patch

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/fieldpath"
)

// Strategic merge patch, as kube-apiserver applies it to built-in kinds:
// maps merge key by key (null deletes), lists merge as their field's
// patch strategy says (by merge key, as sets of scalars, or replaced),
// and the directives:
//
//   - "$patch": "replace" replaces a map, or (in a list item) the list;
//     "delete" deletes a map, or the list item with the merge key's value;
//     any other value is refused.
//   - "$retainKeys": [keys] keeps only those keys of the object (the
//     patch may set no other).
//   - "$setElementOrder/FIELD": [items] orders the merged list.
//   - "$deleteFromPrimitiveList/FIELD": [values] removes values from a
//     list of scalars.
//
// Decoded values follow kube-apiserver's: integers are int64, other
// numbers float64. The patch and the document are changed in place, as
// kube-apiserver changes them (a refusal quotes the patch as it was
// left).

// Errors kube-apiserver answers with 400 Bad Request (StrategicErrBadRequest)
// and 422 (StrategicErrUnprocessable); any other error of Strategic is a
// 500 with its message.
var (
	ErrBadPatchFormatForPrimitiveList       = errors.New("invalid patch format of primitive list")
	ErrBadPatchFormatForRetainKeys          = errors.New("invalid patch format of retainKeys")
	ErrBadPatchFormatForSetElementOrderList = errors.New("invalid patch format of setElementOrder list")
	ErrNoListOfLists                        = errors.New("lists of lists are not supported")
)

const (
	directiveMarker             = "$patch"
	retainKeysDirective         = "$retainKeys"
	setElementOrderPrefix       = "$setElementOrder"
	deleteFromPrimitiveListPrfx = "$deleteFromPrimitiveList"
)

// Schema is what Strategic knows of the value it merges: its Go type
// (as kube-apiserver's, for the fields it declares) and the patch
// strategies and merge keys of its fields.
type Schema struct {
	Type reflect.Type
	Meta *fieldpath.PatchMeta
}

// Strategic applies a strategic merge patch to doc, both JSON objects.
func Strategic(doc, patch map[string]any, s Schema) (map[string]any, error) {
	return mergeMap(doc, patch, s)
}

func mergeMap(original, patch map[string]any, s Schema) (map[string]any, error) {
	if v, ok := patch[directiveMarker]; ok {
		switch v {
		case "replace":
			delete(patch, directiveMarker)
			return patch, nil
		case "delete":
			return map[string]any{}, nil
		}
		return nil, errBadPatchType(v, patch)
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := applyRetainKeys(original, patch); err != nil {
		return nil, err
	}
	if err := applyElementOrders(original, patch, s); err != nil {
		return nil, err
	}
	for k, pv := range patch {
		deleteList := false
		if strings.HasPrefix(k, deleteFromPrimitiveListPrfx) {
			key, err := directiveKey(k, deleteFromPrimitiveListPrfx)
			if err != nil {
				return nil, err
			}
			k, deleteList = key, true
		}
		if pv == nil {
			delete(original, k)
			continue
		}
		ov, ok := original[k]
		if !ok || reflect.TypeOf(ov) != reflect.TypeOf(pv) {
			if !deleteList {
				discardNulls(pv)
				if v, keep := removeDirectives(pv); keep {
					original[k] = v
				} else {
					delete(original, k)
				}
			}
			continue
		}
		var err error
		switch ov := ov.(type) {
		case map[string]any:
			var sub Schema
			var strategy string
			if sub, strategy, _, err = s.field(k); err == nil {
				if strategyOf(strategy) == "replace" {
					original[k] = pv
				} else {
					original[k], err = mergeMap(ov, pv.(map[string]any), sub)
				}
			}
		case []any:
			var sub Schema
			var strategy, mergeKey string
			if sub, strategy, mergeKey, err = s.sliceField(k); err == nil {
				if strategyOf(strategy) == "merge" || deleteList {
					original[k], err = mergeSlice(ov, pv.([]any), sub, mergeKey, deleteList)
				} else {
					original[k] = pv
				}
			}
		default:
			if v, keep := removeDirectives(pv); keep {
				original[k] = v
			} else {
				delete(original, k)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return original, nil
}

// strategyOf is a field's strategy without retainKeys, which only
// matters to those who write patches.
func strategyOf(s string) string {
	parts := strings.Split(s, ",")
	for _, p := range parts {
		if p != "retainKeys" && p != "" {
			return p
		}
	}
	return ""
}

// applyRetainKeys applies "$retainKeys": the original loses the keys
// not listed, and the patch may set no other.
func applyRetainKeys(original, patch map[string]any) error {
	v, ok := patch[retainKeysDirective]
	if !ok {
		return nil
	}
	delete(patch, retainKeysDirective)
	list, ok := v.([]any)
	if !ok {
		return ErrBadPatchFormatForRetainKeys
	}
	keep := map[any]bool{}
	for _, k := range list {
		if hashable(k) {
			keep[k] = true
		}
	}
	for k, pv := range patch {
		if pv == nil || strings.HasPrefix(k, deleteFromPrimitiveListPrfx) || strings.HasPrefix(k, setElementOrderPrefix) {
			continue
		}
		if !keep[k] {
			return ErrBadPatchFormatForRetainKeys
		}
	}
	for k := range original {
		if !keep[k] {
			delete(original, k)
		}
	}
	return nil
}

// mergeSlice merges a patch's list into the original list.
func mergeSlice(original, patch []any, s Schema, mergeKey string, deleteList bool) ([]any, error) {
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	kind, err := elementKind(original, patch)
	if err != nil {
		return nil, err
	}
	var merged []any
	if kind != reflect.Map {
		if deleteList {
			return deleteValues(original, patch), nil
		}
		merged = dedupScalars(append(append([]any(nil), original...), patch...))
	} else {
		if mergeKey == "" {
			return nil, fmt.Errorf("cannot merge lists without merge key for %s", s.kindName())
		}
		if original, patch, err = applyItemDirectives(original, patch, mergeKey); err != nil {
			return nil, err
		}
		if merged, err = mergeItems(original, patch, mergeKey, s); err != nil {
			return nil, err
		}
	}
	var fromPatch, serverOnly []any
	if mergeKey == "" {
		fromPatch, serverOnly = partitionScalars(merged, patch)
	} else if fromPatch, serverOnly, err = partitionMaps(merged, patch, mergeKey); err != nil {
		return nil, err
	}
	return normalizeOrder(fromPatch, serverOnly, patch, original, mergeKey, kind)
}

// applyItemDirectives applies the "$patch" items of a list of maps:
// delete removes the original items with the item's merge key value,
// replace makes the patch's other items the whole list. It returns the
// original and the patch's plain items.
func applyItemDirectives(original, patch []any, mergeKey string) ([]any, []any, error) {
	plain := []any{}
	replace := false
	for _, v := range patch {
		m := v.(map[string]any)
		d, ok := m[directiveMarker]
		if !ok {
			plain = append(plain, v)
			continue
		}
		switch d {
		case "delete":
			kv, ok := m[mergeKey]
			if !ok {
				return nil, nil, errNoMergeKey(m, mergeKey)
			}
			for {
				i, err := indexByKey(original, mergeKey, kv)
				if err != nil {
					return nil, nil, err
				}
				if i < 0 {
					break
				}
				original = append(original[:i], original[i+1:]...)
			}
		case "replace":
			replace = true
		case "merge":
			return nil, nil, errors.New("merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, errBadPatchType(d, m)
		}
	}
	if replace {
		return plain, nil, nil
	}
	return original, plain, nil
}

// mergeItems merges each patch item into the original item with the
// same merge key value, or appends it.
func mergeItems(original, patch []any, mergeKey string, s Schema) ([]any, error) {
	for _, v := range patch {
		m := v.(map[string]any)
		kv, ok := m[mergeKey]
		if !ok {
			return nil, errNoMergeKey(m, mergeKey)
		}
		i, err := indexByKey(original, mergeKey, kv)
		if err != nil {
			return nil, err
		}
		if i < 0 {
			original = append(original, v)
			continue
		}
		merged, err := mergeMap(original[i].(map[string]any), m, s)
		if err != nil {
			return nil, err
		}
		original[i] = merged
	}
	return original, nil
}

// indexByKey finds the item of a list of maps whose merge key has a
// value, or -1.
func indexByKey(list []any, key string, value any) (int, error) {
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return 0, fmt.Errorf("value for key %v is not a map", i)
		}
		if mv, ok := m[key]; ok && equalValues(mv, value) {
			return i, nil
		}
	}
	return -1, nil
}

func deleteValues(current, remove []any) []any {
	out := make([]any, 0, len(current))
	for _, v := range current {
		if !containsValue(remove, v) {
			out = append(out, v)
		}
	}
	return out
}

// dedupScalars drops repeated values the way kube-apiserver does: a
// repeat is replaced by the list's last value (the order is restored
// afterwards by normalizeOrder).
func dedupScalars(s []any) []any {
	last := len(s) - 1
	for i := 0; i < last; i++ {
		for j := i + 1; j <= last; j++ {
			if equalValues(s[i], s[j]) {
				s[j] = s[last]
				s = s[:last]
				last--
				j--
			}
		}
	}
	return s
}

// removeDirectives drops the maps that carry "$patch" from a value.
func removeDirectives(v any) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v[directiveMarker]; ok {
			return nil, false
		}
		for k, x := range v {
			if nx, keep := removeDirectives(x); keep {
				v[k] = nx
			} else {
				delete(v, k)
			}
		}
		return v, true
	case []any:
		out := []any{}
		for _, x := range v {
			if nx, keep := removeDirectives(x); keep {
				out = append(out, nx)
			}
		}
		return out, true
	}
	return v, true
}

// discardNulls drops the null values of maps in a value.
func discardNulls(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
			} else {
				discardNulls(x)
			}
		}
	case []any:
		for _, x := range v {
			discardNulls(x)
		}
	}
}

// directiveKey is the field a directive key names.
func directiveKey(k, prefix string) (string, error) {
	before, after, ok := strings.Cut(k, "/")
	if !ok || before != prefix {
		if prefix == deleteFromPrimitiveListPrfx {
			return "", ErrBadPatchFormatForPrimitiveList
		}
		return "", ErrBadPatchFormatForSetElementOrderList
	}
	return after, nil
}

// equalValues compares decoded JSON scalars as kube-apiserver's Go ==
// does (maps and lists are never equal).
func equalValues(a, b any) bool {
	if !hashable(a) || !hashable(b) {
		return false
	}
	return a == b
}

func hashable(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

func containsValue(list []any, v any) bool {
	for _, x := range list {
		if equalValues(x, v) {
			return true
		}
	}
	return false
}

func errBadPatchType(t any, m map[string]any) error {
	return fmt.Errorf("unknown patch type: %s in map: %v", t, sprint(m))
}

func errNoMergeKey(m map[string]any, k string) error {
	return fmt.Errorf("map: %v does not contain declared merge key: %s", sprint(m), k)
}

func errBadArgType(expected, actual any) error {
	return fmt.Errorf("expected a %s, but received a %s", reflect.TypeOf(expected), reflect.TypeOf(actual))
}

// sprint formats a decoded value as Go's %v formats kube-apiserver's
// (maps with sorted keys, as map[k:v]).
func sprint(v any) string { return fmt.Sprint(v) }
