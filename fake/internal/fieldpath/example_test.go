package fieldpath_test

import (
	"encoding/json"
	"fmt"

	"github.com/kubewire/kubewire/fake/internal/fieldpath"
)

func ExampleToSet() {
	var b fieldpath.Builtins
	var obj map[string]any
	_ = json.Unmarshal([]byte(`{"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"web","image":"nginx"}]}}}}`), &obj)
	set := fieldpath.ToSet(obj, b.Kind("apps/v1", "Deployment"))
	raw, _ := set.MarshalJSON()
	fmt.Println(string(raw))
	// Output:
	// {"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}}
}
