package selector

import (
	"errors"
	"testing"
)

func TestLabels(t *testing.T) {
	labels := map[string]string{"app": "web", "tier": "front", "n": "5"}
	tests := []struct {
		sel  string
		want bool
	}{
		{"", true},
		{"app=web", true},
		{"app==web", true},
		{"app!=web", false},
		{"app!=db", true},
		{"missing!=x", true},
		{"app in (db, web)", true},
		{"app in (db)", false},
		{"app notin (db)", true},
		{"app notin (web,db)", false},
		{"missing notin (web)", true},
		{"app", true},
		{"missing", false},
		{"!missing", true},
		{"!app", false},
		{"app=web,tier=front", true},
		{"app=web, tier=back", false},
		{"n>4", true},
		{"n<4", false},
		{"example.com/key", false},
		{"app=", false},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			s, err := ParseLabels(tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Matches(labels); got != tt.want {
				t.Errorf("Matches = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestLabelsErrors(t *testing.T) {
	for _, sel := range []string{"app=web,", "=x", "app in web", "app in (a", "app=web x", "app==-bad", "n>x", "Bad_/x", "app ~ x"} {
		t.Run(sel, func(t *testing.T) {
			if _, err := ParseLabels(sel); !errors.Is(err, ErrSyntax) {
				t.Errorf("ParseLabels(%q) error = %v, want ErrSyntax", sel, err)
			}
		})
	}
}

func TestFields(t *testing.T) {
	values := map[string]string{"metadata.name": "web-1", "status.phase": "Running", "odd": "a,b=c"}
	tests := []struct {
		sel  string
		want bool
	}{
		{"", true},
		{"metadata.name=web-1", true},
		{"metadata.name==web-1", true},
		{"metadata.name!=web-1", false},
		{"metadata.name=web-1,status.phase=Running", true},
		{"metadata.name=web-1,status.phase=Pending", false},
		{`odd=a\,b\=c`, true},
		{"spec.nodeName=", true},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			s, err := ParseFields(tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Matches(values); got != tt.want {
				t.Errorf("Matches = %v, want %v", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"name", `a=\x`, "=x"} {
		if _, err := ParseFields(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseFields(%q) error = %v, want ErrSyntax", bad, err)
		}
	}
	s, _ := ParseFields("metadata.name=x,spec.bogus=y")
	if err := s.Check(func(f string) bool { return f == "metadata.name" }); !errors.Is(err, ErrSyntax) {
		t.Errorf("Check error = %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("app in (a,b),!x,y!=z")
	f.Add(`a=\,b`)
	f.Fuzz(func(t *testing.T, s string) {
		if l, err := ParseLabels(s); err == nil {
			l.Matches(map[string]string{"a": "b"})
		}
		if fs, err := ParseFields(s); err == nil {
			fs.Matches(map[string]string{"a": "b"})
		}
	})
}
