package ctrlutil

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMergePatch(t *testing.T) {
	tests := []struct {
		name         string
		before       map[string]any
		after        map[string]any
		main, status map[string]any
	}{
		{"Equal", map[string]any{"a": "1"}, map[string]any{"a": "1"}, nil, nil},
		{"Changed", map[string]any{"a": "1", "b": "2"}, map[string]any{"a": "1", "b": "3"}, map[string]any{"b": "3"}, nil},
		{"Added", map[string]any{}, map[string]any{"spec": map[string]any{"x": "1"}}, map[string]any{"spec": map[string]any{"x": "1"}}, nil},
		{"Removed", map[string]any{"a": "1", "b": "2"}, map[string]any{"a": "1"}, map[string]any{"b": nil}, nil},
		{"Nested",
			map[string]any{"spec": map[string]any{"x": "1", "y": map[string]any{"z": "1", "w": "1"}}},
			map[string]any{"spec": map[string]any{"x": "1", "y": map[string]any{"z": "2"}}},
			map[string]any{"spec": map[string]any{"y": map[string]any{"z": "2", "w": nil}}}, nil},
		{"ListsWhole", map[string]any{"l": []any{"a", "b"}}, map[string]any{"l": []any{"a"}}, map[string]any{"l": []any{"a"}}, nil},
		{"StatusApart",
			map[string]any{"spec": "1", "status": map[string]any{"n": "1", "m": "1"}},
			map[string]any{"spec": "2", "status": map[string]any{"n": "2", "m": "1"}},
			map[string]any{"spec": "2"}, map[string]any{"status": map[string]any{"n": "2"}}},
		{"TypeAndVersionNeverPatched",
			map[string]any{"apiVersion": "v1", "kind": "A", "metadata": map[string]any{"resourceVersion": "1"}},
			map[string]any{"apiVersion": "v2", "kind": "B", "metadata": map[string]any{"resourceVersion": "2"}},
			nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			main, status := mergePatch(tt.before, tt.after)
			if diff := cmp.Diff(tt.main, main); diff != "" {
				t.Errorf("main (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.status, status); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
		})
	}
}
