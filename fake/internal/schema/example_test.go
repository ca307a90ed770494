package schema_test

import (
	"encoding/json"
	"fmt"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/fake/internal/schema"
)

func Example() {
	var props apiextensionsv1.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{
		"size":{"type":"integer","maximum":10,"default":3},"color":{"type":"string","enum":["red","blue"]}}}}}`), &props)
	s, _ := schema.New(&props)
	obj := map[string]any{"spec": map[string]any{"color": "green", "bogus": true}}
	fmt.Println(s.Prune(obj))
	s.Default(obj)
	fmt.Println(obj["spec"])
	for _, e := range s.Validate(obj) {
		fmt.Println(e)
	}
	// Output:
	// [spec.bogus]
	// map[color:green size:3]
	// spec.color: Unsupported value: "green": supported values: "red", "blue"
}
