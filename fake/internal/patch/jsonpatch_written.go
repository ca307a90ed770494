package patch

import (
	"encoding/json"
	"strconv"
)

// kube-apiserver applies a JSON patch to the object's JSON lazily: only
// the objects and arrays on an operation's path are decoded, and those
// are written back with sorted keys; everything else keeps the bytes it
// had (the typed encoding's field order). When the result does not
// decode as the kind, the 422 quotes it as written that way.

// jsonPatchedAsWritten returns a JSON patch's result as kube-apiserver
// writes it, or nil when it cannot tell.
func jsonPatchedAsWritten(original, body []byte) []byte {
	var ops []map[string]json.RawMessage
	if json.Unmarshal(body, &ops) != nil {
		return nil
	}
	var doc any = json.RawMessage(original)
	for _, op := range ops {
		var name, path, from string
		if unmarshalField(op, "op", &name) != nil || unmarshalField(op, "path", &path) != nil {
			return nil
		}
		parts, err := splitPointer(path)
		if err != nil {
			return nil
		}
		switch name {
		case "add", "replace", "remove":
			kind := map[string]opKind{"add": opAdd, "replace": opReplace, "remove": opRemove}[name]
			var value any
			if kind != opRemove {
				value = op["value"]
			}
			doc = decodeAlong(doc, parentOf(parts))
			if doc, err = apply(doc, path, kind, value); err != nil {
				return nil
			}
		case "move", "copy":
			if unmarshalField(op, "from", &from) != nil {
				return nil
			}
			fromParts, err := splitPointer(from)
			if err != nil {
				return nil
			}
			doc = decodeAlong(doc, parentOf(fromParts))
			v, err := get(doc, from)
			if err != nil {
				return nil
			}
			if name == "move" {
				if doc, err = apply(doc, from, opRemove, nil); err != nil {
					return nil
				}
			}
			doc = decodeAlong(doc, parentOf(parts))
			if doc, err = apply(doc, path, opAdd, v); err != nil {
				return nil
			}
		case "test":
			// Comparing decodes the tested value through and through.
			doc = decodeAlong(doc, parts)
			doc = decodeAt(doc, parts)
		default:
			return nil
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil
	}
	return b
}

func parentOf(parts []string) []string {
	if len(parts) == 0 {
		return nil
	}
	return parts[:len(parts)-1]
}

// decodeOne decodes a raw object or array one level, its members left
// raw.
func decodeOne(v any) any {
	raw, ok := v.(json.RawMessage)
	if !ok || len(raw) == 0 {
		return v
	}
	switch raw[0] {
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return v
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			out[k] = e
		}
		return out
	case '[':
		var l []json.RawMessage
		if json.Unmarshal(raw, &l) != nil {
			return v
		}
		out := make([]any, len(l))
		for i, e := range l {
			out[i] = e
		}
		return out
	}
	return v
}

// decodeAlong decodes v and the containers on the path below it,
// through the last part's.
func decodeAlong(v any, parts []string) any {
	v = decodeOne(v)
	if len(parts) == 0 {
		return v
	}
	switch c := v.(type) {
	case map[string]any:
		if child, ok := c[parts[0]]; ok {
			c[parts[0]] = decodeAlong(child, parts[1:])
		}
	case []any:
		if i, err := strconv.Atoi(parts[0]); err == nil && i >= 0 && i < len(c) {
			c[i] = decodeAlong(c[i], parts[1:])
		}
	}
	return v
}

// decodeAt decodes the whole value at the path (decoded down to it).
func decodeAt(v any, parts []string) any {
	if len(parts) == 0 {
		return decodeAll(v)
	}
	switch c := v.(type) {
	case map[string]any:
		if child, ok := c[parts[0]]; ok {
			c[parts[0]] = decodeAt(child, parts[1:])
		}
	case []any:
		if i, err := strconv.Atoi(parts[0]); err == nil && i >= 0 && i < len(c) {
			c[i] = decodeAt(c[i], parts[1:])
		}
	}
	return v
}

func decodeAll(v any) any {
	v = decodeOne(v)
	switch c := v.(type) {
	case map[string]any:
		for k, e := range c {
			c[k] = decodeAll(e)
		}
	case []any:
		for i, e := range c {
			c[i] = decodeAll(e)
		}
	}
	return v
}
