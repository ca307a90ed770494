package patch

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
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

// applyElementOrders merges the lists that "$setElementOrder/FIELD"
// directives name, in the order they give, and takes both out of the
// patch.
func applyElementOrders(original, patch map[string]any, s Schema) error {
	for k, pv := range patch {
		if !strings.HasPrefix(k, setElementOrderPrefix) {
			continue
		}
		delete(patch, k)
		order, ok := pv.([]any)
		if !ok {
			return errBadArgType([]any(nil), pv)
		}
		key, err := directiveKey(k, setElementOrderPrefix)
		if err != nil {
			return err
		}
		ol, inOriginal := original[key]
		pl, inPatch := patch[key]
		var oList, pList []any
		if inOriginal {
			if oList, ok = ol.([]any); !ok {
				return errBadArgType([]any(nil), ol)
			}
		}
		if inPatch {
			if pList, ok = pl.([]any); !ok {
				return errBadArgType([]any(nil), pl)
			}
		}
		sub, strategy, mergeKey, err := s.sliceField(key)
		if err != nil {
			return err
		}
		if err := checkElementOrder(pList, order, mergeKey); err != nil {
			return err
		}
		var merged []any
		switch {
		case inOriginal && !inPatch:
			merged = oList
		case !inOriginal && inPatch:
			v, _ := removeDirectives(pList)
			merged, _ = v.([]any)
		case inOriginal && inPatch:
			if strategyOf(strategy) == "merge" {
				if merged, err = mergeSlice(oList, pList, sub, mergeKey, false); err != nil {
					return err
				}
			} else {
				merged = pList
			}
		default:
			continue
		}
		var fromPatch, serverOnly []any
		if mergeKey == "" {
			fromPatch, serverOnly = partitionScalars(merged, order)
		} else if fromPatch, serverOnly, err = partitionMaps(merged, order, mergeKey); err != nil {
			return err
		}
		kind, err := elementKind(oList, pList)
		if err != nil {
			return err
		}
		both, err := normalizeOrder(fromPatch, serverOnly, order, oList, mergeKey, kind)
		if err != nil {
			return err
		}
		original[key] = both
		delete(patch, key)
	}
	return nil
}

// checkElementOrder checks that the patch's items come in the order
// "$setElementOrder" gives (deleted items aside).
func checkElementOrder(pList, order []any, mergeKey string) error {
	if len(order) == 0 || len(pList) == 0 {
		return nil
	}
	items := pList
	if mergeKey != "" {
		var err error
		if items, _, err = splitDeletes(pList); err != nil {
			return err
		}
	}
	pi, oi := 0, 0
	for pi < len(items) && oi < len(order) {
		if m, ok := items[pi].(map[string]any); ok {
			if _, directive := m[directiveMarker]; directive {
				pi++
				continue
			}
		}
		same, err := sameMergeKey(items[pi], order[oi], mergeKey)
		if err != nil {
			return err
		}
		if same {
			pi++
		}
		oi++
	}
	if pi < len(items) && oi >= len(order) {
		return fmt.Errorf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", sprint(pList), setElementOrderPrefix, sprint(order))
	}
	return nil
}

func sameMergeKey(a, b any, mergeKey string) (bool, error) {
	if mergeKey == "" {
		return equalValues(a, b), nil
	}
	am, ok := a.(map[string]any)
	if !ok {
		return false, errBadArgType(map[string]any(nil), a)
	}
	bm, ok := b.(map[string]any)
	if !ok {
		return false, errBadArgType(map[string]any(nil), b)
	}
	av, ok := am[mergeKey]
	if !ok {
		return false, errNoMergeKey(am, mergeKey)
	}
	bv, ok := bm[mergeKey]
	if !ok {
		return false, errNoMergeKey(bm, mergeKey)
	}
	return equalValues(av, bv), nil
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

func partitionScalars(list, by []any) (fromPatch, serverOnly []any) {
	fromPatch, serverOnly = make([]any, 0, len(list)), make([]any, 0, len(list))
	for _, v := range list {
		if containsValue(by, v) {
			fromPatch = append(fromPatch, v)
		} else {
			serverOnly = append(serverOnly, v)
		}
	}
	return fromPatch, serverOnly
}

func partitionMaps(list, by []any, mergeKey string) (fromPatch, serverOnly []any, err error) {
	fromPatch, serverOnly = make([]any, 0, len(list)), make([]any, 0, len(list))
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errBadArgType(map[string]any(nil), v)
		}
		kv, ok := m[mergeKey]
		if !ok {
			return nil, nil, errNoMergeKey(m, mergeKey)
		}
		i, err := indexByKey(by, mergeKey, kv)
		if err != nil {
			return nil, nil, err
		}
		if i >= 0 {
			fromPatch = append(fromPatch, v)
		} else {
			serverOnly = append(serverOnly, v)
		}
	}
	return fromPatch, serverOnly, nil
}

// normalizeOrder orders a merged list: the patch's items as patchOrder
// has them, the others as serverOrder has them, and the two interleaved
// so that a server item precedes a patch item only when it did in
// serverOrder.
func normalizeOrder(fromPatch, serverOnly, patchOrder, serverOrder []any, mergeKey string, kind reflect.Kind) ([]any, error) {
	fromPatch, err := sortByOrder(fromPatch, patchOrder, mergeKey, kind)
	if err != nil {
		return nil, err
	}
	serverOnly, err = sortByOrder(serverOnly, serverOrder, mergeKey, kind)
	if err != nil {
		return nil, err
	}
	pos := func(v any) int { return position(serverOrder, v, mergeKey, kind) }
	out := make([]any, 0, len(fromPatch)+len(serverOnly))
	i, j := 0, 0
	for i < len(serverOnly) || j < len(fromPatch) {
		switch {
		case i >= len(serverOnly):
			out = append(out, fromPatch[j])
			j++
		case j >= len(fromPatch):
			out = append(out, serverOnly[i])
			i++
		default:
			li, ri := pos(serverOnly[i]), pos(fromPatch[j])
			if li >= 0 && ri >= 0 && li < ri {
				out = append(out, serverOnly[i])
				i++
			} else {
				out = append(out, fromPatch[j])
				j++
			}
		}
	}
	return out, nil
}

// sortByOrder sorts a list by the positions of its items in order, with
// kube-apiserver's comparison (an item not in order sorts before any),
// deleted items last.
func sortByOrder(items, order []any, mergeKey string, kind reflect.Kind) ([]any, error) {
	var deleted []any
	if kind == reflect.Map {
		for _, list := range [][]any{items, order} {
			for _, v := range list {
				m, ok := v.(map[string]any)
				if !ok {
					return nil, errBadArgType(map[string]any(nil), v)
				}
				if _, ok := m[mergeKey]; !ok {
					return nil, errNoMergeKey(m, mergeKey)
				}
			}
		}
		var err error
		if items, deleted, err = splitDeletes(items); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(items, func(a, b int) bool {
		if pa := position(order, items[a], mergeKey, kind); pa >= 0 {
			if pb := position(order, items[b], mergeKey, kind); pb >= 0 {
				return pa < pb
			}
		}
		return true
	})
	return append(items, deleted...), nil
}

// splitDeletes separates the "$patch": "delete" items of a list of maps.
func splitDeletes(list []any) (keep, deleted []any, err error) {
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errBadArgType(map[string]any(nil), v)
		}
		if m[directiveMarker] == "delete" {
			deleted = append(deleted, v)
		} else {
			keep = append(keep, v)
		}
	}
	return keep, deleted, nil
}

// position is the index of v in list, matched by merge key value for
// maps and by value otherwise.
func position(list []any, v any, mergeKey string, kind reflect.Kind) int {
	key := func(x any) any {
		if kind != reflect.Map {
			return x
		}
		m, _ := x.(map[string]any)
		return m[mergeKey]
	}
	want := key(v)
	for i, x := range list {
		if equalValues(key(x), want) {
			return i
		}
	}
	return -1
}

// elementKind is the kind of the items of the lists, which must all have
// one Go type and not be lists.
func elementKind(lists ...[]any) (reflect.Kind, error) {
	var prev reflect.Type
	for _, l := range lists {
		for _, v := range l {
			t := reflect.TypeOf(v)
			if prev == nil {
				prev = t
				if t != nil && t.Kind() == reflect.Slice {
					return 0, ErrNoListOfLists
				}
				continue
			}
			if t != prev {
				return 0, fmt.Errorf("list element types are not identical: %v", sprint(lists))
			}
		}
	}
	if prev == nil {
		return 0, errors.New("no elements in any of the given slices")
	}
	return prev.Kind(), nil
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

// field is the schema of a field whose value is an object, its patch
// strategy and merge key.
func (s Schema) field(name string) (Schema, string, string, error) {
	t := s.Type
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return Schema{}, "", "", nil
	}
	if t.Kind() != reflect.Struct {
		return Schema{}, "", "", fmt.Errorf("merging an object in json but data type is not struct, instead is: %s", t.Kind())
	}
	f, jsonName, ok := fieldByJSONName(t, name)
	if !ok {
		return Schema{}, "", "", fmt.Errorf("unable to find api field in struct %s for the json field %q", t.Name(), name)
	}
	meta, strategy, mergeKey := s.Meta.Field(jsonName)
	return Schema{Type: f, Meta: meta}, strategy, mergeKey, nil
}

// sliceField is the schema of the items of a list field, the field's
// patch strategy and merge key.
func (s Schema) sliceField(name string) (Schema, string, string, error) {
	sub, strategy, mergeKey, err := s.field(name)
	if err != nil || sub.Type == nil {
		return sub, strategy, mergeKey, err
	}
	t := sub.Type
	switch t.Kind() {
	case reflect.Array, reflect.Slice:
		t = t.Elem()
		if t.Kind() == reflect.Array || t.Kind() == reflect.Slice {
			return Schema{}, "", "", errors.New("unexpected slice of slice")
		}
	case reflect.Pointer:
		t = t.Elem()
		if t.Kind() == reflect.Array || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
	default:
		return Schema{}, "", "", fmt.Errorf("expected slice or array type, but got: %s", s.structKind())
	}
	return Schema{Type: t, Meta: sub.Meta}, strategy, mergeKey, nil
}

func (s Schema) structKind() string {
	if s.Type == nil {
		return "struct"
	}
	return s.Type.Kind().String()
}

func (s Schema) kindName() string {
	if s.Type == nil {
		return "interface"
	}
	return s.Type.Kind().String()
}

// fieldByJSONName finds the field JSON decoding would use: by its exact
// JSON name, else ignoring case; embedded structs' fields count as the
// outer struct's.
func fieldByJSONName(t reflect.Type, name string) (reflect.Type, string, bool) {
	var fold reflect.Type
	foldName := ""
	var walk func(t reflect.Type) (reflect.Type, string, bool)
	walk = func(t reflect.Type) (reflect.Type, string, bool) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			n, _, _ := strings.Cut(tag, ",")
			ft := f.Type
			if f.Anonymous && n == "" {
				et := ft
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					if r, rn, ok := walk(et); ok {
						return r, rn, true
					}
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if n == "" {
				n = f.Name
			}
			if n == name {
				return ft, n, true
			}
			if fold == nil && strings.EqualFold(n, name) {
				fold, foldName = ft, n
			}
		}
		return nil, "", false
	}
	if r, n, ok := walk(t); ok {
		return r, n, true
	}
	return fold, foldName, fold != nil
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
