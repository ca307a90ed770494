package selector

import (
	"errors"
	"testing"
)

func TestMetadataMatches(t *testing.T) {
	m, err := ParseMetadata("app=web,!canary", "metadata.namespace=shop,metadata.name!=old,status.phase=Running")
	if err != nil {
		t.Fatal(err)
	}
	web := map[string]string{"app": "web"}
	for _, tc := range []struct {
		namespace, name string
		labels          map[string]string
		want            bool
	}{
		{"shop", "a", web, true},
		{"shop", "a", map[string]string{"app": "db"}, false},
		{"shop", "a", map[string]string{"app": "web", "canary": ""}, false},
		{"other", "a", web, false},
		{"shop", "old", web, false},
	} {
		// status.phase is the kind's own field: the metadata cannot tell, so it does not filter.
		if got := m.Matches(tc.namespace, tc.name, tc.labels); got != tc.want {
			t.Errorf("Matches(%q, %q, %v) = %v, want %v", tc.namespace, tc.name, tc.labels, got, tc.want)
		}
	}
	if all, err := ParseMetadata("", ""); err != nil || !all.Matches("x", "y", nil) {
		t.Errorf("empty selectors: %v; want everything matched", err)
	}
	for _, bad := range [][2]string{{"app in (", ""}, {"", "metadata.name"}} {
		if _, err := ParseMetadata(bad[0], bad[1]); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseMetadata(%q, %q): %v; want ErrSyntax", bad[0], bad[1], err)
		}
	}
}
