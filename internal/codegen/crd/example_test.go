package crd_test

import (
	"fmt"
	"slices"

	"github.com/kubewire/kubewire/internal/codegen/crd"
)

func ExampleCompareVersions() {
	versions := []string{"v1beta1", "v2", "v1", "v1alpha2"}
	slices.SortFunc(versions, func(a, b string) int { return crd.CompareVersions(b, a) })
	fmt.Println(versions)
	// Output: [v2 v1 v1beta1 v1alpha2]
}
