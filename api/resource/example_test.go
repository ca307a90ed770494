package resource_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/resource"
)

func Example() {
	for _, s := range []string{"0.5", "1000m", "1024Ki", "1.5Gi", "1e3"} {
		q := resource.MustParse(s)
		fmt.Printf("%s -> %s (%s)\n", s, q.String(), q.GetFormat())
	}

	requests := map[string]resource.Quantity{
		"cpu":    resource.MustParse("250m"),
		"memory": resource.MustParse("64Mi"),
	}
	total := requests["cpu"]
	total.Add(resource.MustParse("1.75"))
	fmt.Println(total.String(), total.MilliValue(), requests["memory"].Value())
	// Output:
	// 0.5 -> 500m (DecimalSI)
	// 1000m -> 1 (DecimalSI)
	// 1024Ki -> 1Mi (BinarySI)
	// 1.5Gi -> 1536Mi (BinarySI)
	// 1e3 -> 1e3 (DecimalExponent)
	// 2 2000 67108864
}
