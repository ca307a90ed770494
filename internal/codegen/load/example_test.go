package load_test

import (
	"fmt"
	"go/types"

	"github.com/kubewire/kubewire/internal/codegen/load"
)

func ExampleLoad() {
	l, pkgs, err := load.Load("", "./testdata/pets")
	if err != nil {
		panic(err)
	}
	cat := pkgs[0].Types.Scope().Lookup("Cat").(*types.TypeName)
	doc, err := l.FieldDoc(cat, "Name")
	if err != nil {
		panic(err)
	}
	fmt.Println(doc.Text)
	fmt.Println(doc.Markers[0].Name, doc.Markers[0].Value)
	// Output:
	// Name is what it answers to (when it does).
	// kubebuilder:validation:MaxLength 20
}
