package patch_test

import (
	"encoding/json"
	"fmt"

	"github.com/kubewire/kubewire/fake/internal/patch"
)

func ExampleMerge() {
	var doc, p any
	_ = json.Unmarshal([]byte(`{"data":{"a":"1","b":"2"}}`), &doc)
	_ = json.Unmarshal([]byte(`{"data":{"a":null,"c":"3"}}`), &p)
	out, _ := json.Marshal(patch.Merge(doc, p))
	fmt.Println(string(out))
	// Output:
	// {"data":{"b":"2","c":"3"}}
}
