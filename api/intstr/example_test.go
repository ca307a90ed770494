package intstr_test

import (
	"encoding/json"
	"fmt"

	"github.com/kubewire/kubewire/api/intstr"
)

func Example() {
	var spec struct {
		Port     intstr.IntOrString `json:"port"`
		MaxSurge intstr.IntOrString `json:"maxSurge"`
	}
	_ = json.Unmarshal([]byte(`{"port": "http", "maxSurge": "25%"}`), &spec)
	surge, _ := intstr.GetScaledValueFromIntOrPercent(&spec.MaxSurge, 10, true)
	fmt.Println(spec.Port.String(), surge)

	p := intstr.Parse("8080")
	out, _ := json.Marshal(p)
	fmt.Println(string(out))
	// Output:
	// http 3
	// 8080
}
