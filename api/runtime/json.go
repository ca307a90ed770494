package runtime

// DeepCopyJSONValue returns a deep copy of a value made of the types
// encoding/json produces (maps, slices, strings, numbers, booleans, nil),
// as Table cells and unstructured objects hold them. Values of other types
// are returned as they are: they are assumed immutable.
func DeepCopyJSONValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = DeepCopyJSONValue(e)
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = DeepCopyJSONValue(e)
		}
		return out
	}
	return v
}
