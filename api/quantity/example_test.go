package quantity_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/quantity"
)

func Example() {
	for _, s := range []string{"0.5", "1000m", "1024Ki", "1.5Gi", "1e3"} {
		q := quantity.MustParse(s)
		fmt.Printf("%s -> %s (%s)\n", s, q.String(), q.GetFormat())
	}

	requests := map[string]quantity.Quantity{
		"cpu":    quantity.MustParse("250m"),
		"memory": quantity.MustParse("64Mi"),
	}
	total := requests["cpu"]
	total.Add(quantity.MustParse("1.75"))
	fmt.Println(total.String(), total.MilliValue(), requests["memory"].Value())
	// Output:
	// 0.5 -> 500m (DecimalSI)
	// 1000m -> 1 (DecimalSI)
	// 1024Ki -> 1Mi (BinarySI)
	// 1.5Gi -> 1536Mi (BinarySI)
	// 1e3 -> 1e3 (DecimalExponent)
	// 2 2000 67108864
}
