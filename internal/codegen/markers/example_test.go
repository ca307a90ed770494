package markers_test

import (
	"fmt"

	"github.com/kubewire/kubewire/internal/codegen/markers"
)

func ExampleParse() {
	set, err := markers.Parse([]string{
		"// Widget is a thing.",
		"// +kubewire:object:root=true",
		"// +kubebuilder:resource:scope=Cluster,shortName=wd;wds",
	})
	if err != nil {
		panic(err)
	}
	res, _ := set.Get(markers.Resource)
	scope, _ := res.Arg("scope")
	short, _ := res.Arg("shortName")
	names, _ := markers.List(short)
	fmt.Println(set.Has(markers.ObjectRoot), scope, names)
	// Output: true Cluster [wd wds]
}
