package patch

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

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
