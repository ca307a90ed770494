package schema

import "fmt"

// ValidateListTypes reports the items that break the uniqueness of
// x-kubernetes-list-type set lists (equal items) and map lists (equal key
// values), as "Duplicate value" errors on the later item.
func (s *Schema) ValidateListTypes(obj map[string]any) []FieldError {
	var errs []FieldError
	listTypes(s, obj, "", &errs)
	return errs
}

func listTypes(s *Schema, x any, path string, errs *[]FieldError) {
	if s == nil {
		return
	}
	switch v := x.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			if sub, ok := s.property(k); ok {
				listTypes(sub, v[k], child(path, k), errs)
			}
		}
	case []any:
		switch s.ListType {
		case "set":
			for i := range v {
				for j := range i {
					if equal(v[i], v[j]) {
						*errs = append(*errs, FieldError{Type: Duplicate, Field: fmt.Sprintf("%s[%d]", path, i), BadValue: v[i]})
						break
					}
				}
			}
		case "map":
			seen := make([]map[string]any, len(v))
			for i, item := range v {
				m, ok := item.(map[string]any)
				if !ok {
					continue
				}
				key := map[string]any{}
				for _, k := range s.ListMapKeys {
					if kv, ok := m[k]; ok {
						key[k] = kv
					} else if s.Items != nil {
						if p := s.Items.Properties[k]; p != nil && p.HasDefault {
							key[k] = p.DefaultValue
						}
					}
				}
				seen[i] = key
				for j := range i {
					if seen[j] != nil && equal(seen[j], key) {
						*errs = append(*errs, FieldError{Type: Duplicate, Field: fmt.Sprintf("%s[%d]", path, i), BadValue: key})
						break
					}
				}
			}
		}
		for i, item := range v {
			listTypes(s.Items, item, fmt.Sprintf("%s[%d]", path, i), errs)
		}
	}
}
