package rbac

import (
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"
)

// YAML writes roles as controller-gen writes role.yaml: header (which
// may be empty, else ends with a newline), then each role as a YAML
// document starting with "---", keys sorted, empty fields left out.
func YAML(roles []Role, roleName, header string) ([]byte, error) {
	out := []byte(header)
	for _, role := range roles {
		meta := map[string]any{"name": roleName}
		kind := "ClusterRole"
		if role.Namespace != "" {
			kind = "Role"
			meta["namespace"] = role.Namespace
		}
		rules := make([]map[string]any, 0, len(role.Rules))
		for _, r := range role.Rules {
			m := map[string]any{"verbs": r.Verbs}
			for name, l := range map[string][]string{"apiGroups": r.Groups, "resources": r.Resources, "resourceNames": r.ResourceNames, "nonResourceURLs": r.URLs} {
				if len(l) > 0 {
					m[name] = l
				}
			}
			rules = append(rules, m)
		}
		j, err := json.Marshal(map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": meta, "rules": rules,
		})
		if err != nil {
			return nil, err
		}
		y, err := yaml.JSONToYAML(j)
		if err != nil {
			return nil, fmt.Errorf("role %s: %w", roleName, err)
		}
		out = append(out, "---\n"...)
		out = append(out, y...)
	}
	return out, nil
}
