package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// PatchOperation is one operation of a JSON patch (RFC 6902), as
// JSONPatch writes them: add, remove or replace.
type PatchOperation struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// MarshalJSON writes value only for add and replace (a null value is
// written as null, not left out).
func (o PatchOperation) MarshalJSON() ([]byte, error) {
	if o.Op == "remove" {
		return json.Marshal(struct {
			Op   string `json:"op"`
			Path string `json:"path"`
		}{o.Op, o.Path})
	}
	return json.Marshal(struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	}{o.Op, o.Path, o.Value})
}

// JSONPatch returns the JSON patch that makes original carry the
// changes from before to after, and nothing else.
//
// original is the object as kube-apiserver sent it; before is the same
// object decoded into a Go type and encoded again; after is that value
// once a Defaulter changed it. before may differ from original without
// any change of the user's: fields the Go type does not know are gone,
// empty fields without omitempty appear, numbers may be written
// differently. Diffing original against after (what a two-way differ
// does) would remove the unknown fields and write the empty ones; this
// diff carries only what changed from before to after:
//
//   - a field whose value is the same in before and after keeps
//     original's (which may be absent);
//   - a field after sets or changes is written, a field after removes
//     is removed, a field only original has is kept;
//   - objects merge field by field; lists of the same length in all
//     three merge item by item, others are taken from after whole.
//
// Numbers compare by value (1 and 1.0 are equal). The patch has add,
// remove and replace operations only; nil means no change.
func JSONPatch(original, before, after []byte) ([]PatchOperation, error) {
	var r, b, a any
	for _, in := range []struct {
		name string
		doc  []byte
		v    *any
	}{{"original", original, &r}, {"before", before, &b}, {"after", after, &a}} {
		v, err := decodeValue(in.doc)
		if err != nil {
			return nil, fmt.Errorf("webhook: json patch: %s: %w", in.name, err)
		}
		*in.v = v
	}
	target := merge3(r, b, a, true, false)
	return diff(nil, "", r, target), nil
}

// decodeValue decodes one JSON document, numbers as json.Number.
func decodeValue(doc []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

// merge3 applies the change from b to a onto r; present says whether r
// exists (a field may be absent from r yet present in b). With guard, a
// change is applied only where r still equals b, so that a value r
// changed since b is kept (the rule for restoring lost fields, where r
// may have been edited after b was recorded).
func merge3(r, b, a any, present, guard bool) any {
	if jsonEqual(b, a) {
		if present {
			return r
		}
		return a
	}
	if guard && present && jsonEqual(r, b) {
		return a
	}
	switch av := a.(type) {
	case map[string]any:
		bv, bok := b.(map[string]any)
		rv, rok := r.(map[string]any)
		if !bok || present && !rok {
			return orR(r, a, present, guard)
		}
		out := make(map[string]any, len(rv)+len(av))
		for k, v := range rv {
			out[k] = v
		}
		for k, bf := range bv {
			if _, ok := av[k]; !ok {
				if rf, ok := rv[k]; !guard || ok && jsonEqual(rf, bf) {
					delete(out, k) // removed from b to a
				}
			}
		}
		for k, af := range av {
			bf, inB := bv[k]
			rf, inR := rv[k]
			switch {
			case !inB:
				if !guard || !inR {
					out[k] = af // added
				}
			case jsonEqual(bf, af):
				// unchanged: r's value (or its absence) stays
			default:
				if v := merge3(rf, bf, af, inR, guard); inR || !guard {
					out[k] = v
				}
			}
		}
		return out
	case []any:
		bv, bok := b.([]any)
		rv, rok := r.([]any)
		if !bok || !rok || len(bv) != len(av) || len(rv) != len(av) {
			return orR(r, a, present, guard)
		}
		out := make([]any, len(av))
		for i := range av {
			out[i] = merge3(rv[i], bv[i], av[i], true, guard)
		}
		return out
	}
	return orR(r, a, present, guard)
}

// orR is a when changes apply unguarded (or r is absent), else r.
func orR(r, a any, present, guard bool) any {
	if guard && present {
		return r
	}
	return a
}

// jsonEqual compares decoded JSON values, numbers by value.
func jsonEqual(x, y any) bool {
	switch xv := x.(type) {
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok || len(xv) != len(yv) {
			return false
		}
		for k, v := range xv {
			w, ok := yv[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			return false
		}
		for i := range xv {
			if !jsonEqual(xv[i], yv[i]) {
				return false
			}
		}
		return true
	case json.Number:
		yv, ok := y.(json.Number)
		return ok && numberEqual(xv, yv)
	case string:
		yv, ok := y.(string)
		return ok && xv == yv
	case bool:
		yv, ok := y.(bool)
		return ok && xv == yv
	case nil:
		return y == nil
	}
	return false
}

func numberEqual(x, y json.Number) bool {
	if x == y {
		return true
	}
	if xi, err := strconv.ParseInt(string(x), 10, 64); err == nil {
		if yi, err := strconv.ParseInt(string(y), 10, 64); err == nil {
			return xi == yi
		}
	}
	xr, ok1 := new(big.Rat).SetString(string(x))
	yr, ok2 := new(big.Rat).SetString(string(y))
	return ok1 && ok2 && xr.Cmp(yr) == 0
}

// diff appends to ops the operations that turn from into to, at path.
func diff(ops []PatchOperation, path string, from, to any) []PatchOperation {
	if jsonEqual(from, to) {
		return ops
	}
	switch tv := to.(type) {
	case map[string]any:
		fv, ok := from.(map[string]any)
		if !ok {
			break
		}
		for _, k := range sortedKeys(fv) {
			if _, ok := tv[k]; !ok {
				ops = append(ops, PatchOperation{Op: "remove", Path: path + "/" + escapePointer(k)})
			}
		}
		for _, k := range sortedKeys(tv) {
			f, ok := fv[k]
			if !ok {
				ops = append(ops, PatchOperation{Op: "add", Path: path + "/" + escapePointer(k), Value: tv[k]})
				continue
			}
			ops = diff(ops, path+"/"+escapePointer(k), f, tv[k])
		}
		return ops
	case []any:
		fv, ok := from.([]any)
		if !ok {
			break
		}
		common := min(len(fv), len(tv))
		for i := range common {
			ops = diff(ops, path+"/"+strconv.Itoa(i), fv[i], tv[i])
		}
		for i := len(fv) - 1; i >= common; i-- {
			ops = append(ops, PatchOperation{Op: "remove", Path: path + "/" + strconv.Itoa(i)})
		}
		for i := common; i < len(tv); i++ {
			ops = append(ops, PatchOperation{Op: "add", Path: path + "/-", Value: tv[i]})
		}
		return ops
	}
	return append(ops, PatchOperation{Op: "replace", Path: path, Value: to})
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// escapePointer escapes a key for a JSON pointer (RFC 6901).
func escapePointer(k string) string {
	if !strings.ContainsAny(k, "~/") {
		return k
	}
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
