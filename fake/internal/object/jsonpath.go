package object

import (
	"fmt"
	"strings"
)

// JSONPathValue reads a simple JSONPath (".a.b", ".a[0].b") from a
// decoded object.
func JSONPathValue(obj map[string]any, path string) (any, bool) {
	var cur any = obj
	for _, part := range strings.Split(strings.TrimPrefix(path, "."), ".") {
		name, index, hasIndex := strings.Cut(part, "[")
		if name != "" {
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[name]; !ok {
				return nil, false
			}
		}
		if hasIndex {
			var i int
			if _, err := fmt.Sscanf(index, "%d]", &i); err != nil {
				return nil, false
			}
			l, ok := cur.([]any)
			if !ok || i < 0 || i >= len(l) {
				return nil, false
			}
			cur = l[i]
		}
	}
	return cur, true
}
