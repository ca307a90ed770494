package load

import (
	"go/types"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/internal/codegen/markers"
)

func TestLoadReadsMarkers(t *testing.T) {
	l, pkgs, err := Load("", "./testdata/pets")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 {
		t.Fatalf("%d packages", len(pkgs))
	}
	p := pkgs[0]
	if len(p.TypeErrors) != 0 {
		t.Errorf("type errors (the generated file should be left out): %v", p.TypeErrors)
	}
	pd, err := l.PackageDoc(p.Path)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := pd.Markers.Get(markers.GroupName); m.Value != "pets.example.com" {
		t.Errorf("groupName = %q", m.Value)
	}
	cat := p.Types.Scope().Lookup("Cat").(*types.TypeName)
	for _, tc := range []struct {
		doc      func() (Doc, error)
		text     string
		markers  []string
		comments string
	}{
		{func() (Doc, error) { return l.TypeDoc(cat) }, "Cat is a pet.", []string{markers.ObjectRoot}, "type"},
		{func() (Doc, error) { return l.FieldDoc(cat, "Name") }, "Name is what it answers to (when it does).", []string{markers.MaxLength}, "field"},
		{func() (Doc, error) { return l.FieldDoc(cat, "Toy.Color") }, "", []string{markers.Optional}, "field of an anonymous struct"},
		{func() (Doc, error) {
			return l.TypeDoc(p.Types.Scope().Lookup("Lives").(*types.TypeName))
		}, "Lives is how many are left; its marker sits above its doc comment.", []string{markers.Minimum}, "markers one blank line above"},
	} {
		t.Run(tc.comments, func(t *testing.T) {
			d, err := tc.doc()
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, m := range d.Markers {
				names = append(names, m.Name)
			}
			if diff := cmp.Diff(tc.markers, names); diff != "" {
				t.Errorf("markers (-want +got):\n%s", diff)
			}
			if d.Text != tc.text {
				t.Errorf("text %q, want %q", d.Text, tc.text)
			}
		})
	}
}

func TestLoadDependencyDocs(t *testing.T) {
	l, _, err := Load("", "./testdata/pets")
	if err != nil {
		t.Fatal(err)
	}
	// A dependency's comments are read from its source on demand: here
	// the standard library's time (no markers, a doc comment).
	timePkg, err := l.imp.Import("time")
	if err != nil {
		t.Fatal(err)
	}
	d, err := l.TypeDoc(timePkg.Scope().Lookup("Duration").(*types.TypeName))
	if err != nil || d.Text == "" {
		t.Errorf("doc of time.Duration = %+v, %v", d, err)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, _, err := Load("", "./testdata/nothing-here"); err == nil {
		t.Error("a missing package loaded")
	}
}
