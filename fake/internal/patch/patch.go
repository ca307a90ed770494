// Package patch applies the patch formats kube-apiserver accepts to JSON
// documents decoded as map[string]any / []any values: JSON Patch (RFC
// 6902), JSON merge patch (RFC 7386) and strategic merge patch with the
// list merge keys of the common built-in fields.
//
// A Patcher applies a request's patch (TypeOf names its type) or
// server-side apply configuration to a stored object's draft, with
// kube-apiserver's errors: a 422 naming the patch for a result that does
// not decode, 409 conflicts of apply with other managers' fields, a 500
// for applied fields the kind's schema does not declare.
//
// Functions do not modify their inputs' maps and slices they return new
// values for, but may share unchanged subtrees with them: callers own the
// result only as far as they own the inputs.
package patch

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalid is matched (errors.Is) by every error for a malformed patch
// or one that does not apply.
var ErrInvalid = errors.New("invalid patch")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// Merge applies an RFC 7386 merge patch: objects merge recursively, null
// deletes, anything else replaces.
func Merge(doc, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	dm, ok := doc.(map[string]any)
	if !ok {
		dm = map[string]any{}
	}
	out := make(map[string]any, len(dm)+len(pm))
	for k, v := range dm {
		out[k] = v
	}
	for k, v := range pm {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = Merge(out[k], v)
	}
	return out
}

// JSONPatch applies an RFC 6902 patch document (a JSON array of
// operations) to doc.
func JSONPatch(doc any, ops []byte) (any, error) {
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(ops, &list); err != nil {
		return nil, invalid("json patch is not an array of operations: %v", err)
	}
	doc = deepCopy(doc)
	for i, op := range list {
		var name, path, from string
		if err := unmarshalField(op, "op", &name); err != nil {
			return nil, invalid("operation %d: %v", i, err)
		}
		if err := unmarshalField(op, "path", &path); err != nil {
			return nil, invalid("operation %d: %v", i, err)
		}
		var value any
		if raw, ok := op["value"]; ok {
			if err := json.Unmarshal(raw, &value); err != nil {
				return nil, invalid("operation %d: value: %v", i, err)
			}
		} else if name == "add" || name == "replace" || name == "test" {
			return nil, invalid("operation %d (%s): missing value", i, name)
		}
		var err error
		switch name {
		case "add":
			doc, err = apply(doc, path, opAdd, value)
		case "remove":
			doc, err = apply(doc, path, opRemove, nil)
		case "replace":
			doc, err = apply(doc, path, opReplace, value)
		case "move", "copy":
			if err = unmarshalField(op, "from", &from); err != nil {
				return nil, invalid("operation %d: %v", i, err)
			}
			var v any
			if v, err = get(doc, from); err == nil {
				if name == "move" {
					doc, err = apply(doc, from, opRemove, nil)
				} else {
					v = deepCopy(v)
				}
				if err == nil {
					doc, err = apply(doc, path, opAdd, v)
				}
			}
		case "test":
			var have any
			if have, err = get(doc, path); err == nil {
				a, _ := json.Marshal(have)
				b, _ := json.Marshal(value)
				if string(a) != string(b) {
					err = invalid("testing value %s failed", path)
				}
			}
		default:
			err = invalid("unexpected kind of operation %q", name)
		}
		if err != nil {
			return nil, err
		}
	}
	return doc, nil
}

func unmarshalField(op map[string]json.RawMessage, name string, v *string) error {
	raw, ok := op[name]
	if !ok {
		return fmt.Errorf("missing %q", name)
	}
	return json.Unmarshal(raw, v)
}

type opKind int

const (
	opAdd opKind = iota
	opRemove
	opReplace
)

func splitPointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if !strings.HasPrefix(p, "/") {
		return nil, invalid("path %q does not start with /", p)
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

func get(doc any, path string) (any, error) {
	parts, err := splitPointer(path)
	if err != nil {
		return nil, err
	}
	cur := doc
	for _, p := range parts {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[p]
			if !ok {
				return nil, invalid("path %s not found", path)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil, invalid("path %s: index %q out of range", path, p)
			}
			cur = c[i]
		default:
			return nil, invalid("path %s not found", path)
		}
	}
	return cur, nil
}

// apply performs add, remove or replace at path, returning the new root.
func apply(doc any, path string, kind opKind, value any) (any, error) {
	parts, err := splitPointer(path)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		if kind == opRemove {
			return nil, invalid("cannot remove the whole document")
		}
		return value, nil
	}
	return applyAt(doc, parts, path, kind, value)
}

func applyAt(cur any, parts []string, path string, kind opKind, value any) (any, error) {
	key := parts[0]
	last := len(parts) == 1
	switch c := cur.(type) {
	case map[string]any:
		if last {
			_, exists := c[key]
			switch kind {
			case opAdd, opReplace:
				// kube-apiserver's JSON patch (evanphx/json-patch
				// v4) replaces a missing key of an object as add.
				c[key] = value
			case opRemove:
				if !exists {
					return nil, invalid("remove operation does not apply: doc is missing path: %s", path)
				}
				delete(c, key)
			}
			return c, nil
		}
		child, ok := c[key]
		if !ok {
			return nil, invalid("doc is missing path: %s", path)
		}
		v, err := applyAt(child, parts[1:], path, kind, value)
		if err != nil {
			return nil, err
		}
		c[key] = v
		return c, nil
	case []any:
		var i int
		if key == "-" && last && kind == opAdd {
			i = len(c)
		} else {
			n, err := strconv.Atoi(key)
			if err != nil || n < 0 || n > len(c) || (n == len(c) && !(last && kind == opAdd)) {
				return nil, invalid("path %s: index %q out of range", path, key)
			}
			i = n
		}
		if !last {
			v, err := applyAt(c[i], parts[1:], path, kind, value)
			if err != nil {
				return nil, err
			}
			c[i] = v
			return c, nil
		}
		switch kind {
		case opAdd:
			c = append(c, nil)
			copy(c[i+1:], c[i:])
			c[i] = value
		case opReplace:
			c[i] = value
		case opRemove:
			c = append(c[:i], c[i+1:]...)
		}
		return c, nil
	}
	return nil, invalid("doc is missing path: %s", path)
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
