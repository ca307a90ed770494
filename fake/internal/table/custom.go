package table

import (
	"encoding/json"
	"strconv"
	"time"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// customColumns are the column definitions of a custom resource's
// Tables: Name, then the CRD's printer columns.
func customColumns(cols []apiextensionsv1.CustomResourceColumnDefinition) []metav1.TableColumnDefinition {
	out := []metav1.TableColumnDefinition{{Name: "Name", Type: "string", Format: "name", Description: nameDescription}}
	for _, c := range cols {
		desc := c.Description
		if desc == "" {
			desc = "Custom resource definition column (in JSONPath format): " + c.JSONPath
		}
		out = append(out, metav1.TableColumnDefinition{Name: c.Name, Type: c.Type, Format: c.Format, Description: desc, Priority: c.Priority})
	}
	return out
}

// customCells are a custom resource's cells: its name, then each
// column's value at its JSONPath (null when missing or of another type).
func customCells(cols []apiextensionsv1.CustomResourceColumnDefinition, o *object.Stored, now time.Time) []any {
	var obj map[string]any
	_ = json.Unmarshal(o.JSON, &obj)
	cells := []any{o.Name}
	for _, c := range cols {
		v, ok := object.JSONPathValue(obj, c.JSONPath)
		if !ok || v == nil {
			cells = append(cells, nil)
			continue
		}
		cells = append(cells, cellValue(c.Type, v, now))
	}
	return cells
}

// cellValue converts a value to a column's type as kube-apiserver does.
func cellValue(typ string, v any, now time.Time) any {
	switch typ {
	case "integer":
		if f, ok := v.(float64); ok {
			return int64(f)
		}
	case "number":
		if f, ok := v.(float64); ok {
			return f
		}
	case "boolean":
		if b, ok := v.(bool); ok {
			return b
		}
	case "string":
		switch x := v.(type) {
		case string:
			return x
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64)
		case bool:
			return strconv.FormatBool(x)
		}
		b, _ := json.Marshal(v)
		return string(b)
	case "date":
		if s, ok := v.(string); ok {
			t, err := time.Parse(time.RFC3339, s)
			if err != nil {
				return "<invalid>"
			}
			return humanAge(now.Sub(t))
		}
	}
	return nil
}
