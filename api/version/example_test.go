package version_test

import (
	"encoding/json"
	"fmt"

	"github.com/kubewire/kubewire/api/version"
)

func ExampleInfo() {
	var info version.Info
	_ = json.Unmarshal([]byte(`{"major":"1","minor":"36","gitVersion":"v1.36.3"}`), &info)
	fmt.Println(info.Major, info.Minor, info)
	// Output: 1 36 v1.36.3
}
