package table_test

import (
	"fmt"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/table"
)

// A ConfigMap's row, with the columns kube-apiserver prints for it.
func ExamplePrinter_Render() {
	k, _ := registry.ByResource("", "v1", "configmaps")
	cms, _ := object.Builtin(k, &fieldpath.Builtins{})
	d, _, _ := cms.DecodeJSON([]byte(`{"metadata":{"name":"settings","namespace":"default","creationTimestamp":"2026-01-01T00:00:00Z"},"data":{"a":"1","b":"2"}}`))
	o, _ := d.Seal(3)
	columns := func(string) []metav1.TableColumnDefinition {
		return []metav1.TableColumnDefinition{{Name: "Name", Type: "string"}, {Name: "Data", Type: "string"}, {Name: "Age", Type: "string"}}
	}
	p := table.Printer{Columns: columns, Now: func() time.Time { return time.Date(2026, 1, 1, 0, 5, 0, 0, time.UTC) }}
	b, err := p.Render(cms, []*object.Stored{o}, metav1.ListMeta{ResourceVersion: "3"}, table.Options{Include: "None"})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output:
	// {"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"3"},"columnDefinitions":[{"name":"Name","type":"string","format":"","description":"","priority":0},{"name":"Data","type":"string","format":"","description":"","priority":0},{"name":"Age","type":"string","format":"","description":"","priority":0}],"rows":[{"cells":["settings",2,"5m"],"object":null}]}
}
