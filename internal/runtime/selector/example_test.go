package selector_test

import (
	"fmt"

	"github.com/kubewire/kubewire/internal/runtime/selector"
)

func ExampleParseLabels() {
	sel, err := selector.ParseLabels("app=web,tier in (front,back),!canary")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel.Matches(map[string]string{"app": "web", "tier": "front"}))
	fmt.Println(sel.Matches(map[string]string{"app": "web", "tier": "front", "canary": "yes"}))
	_, err = selector.ParseLabels("tier in front")
	fmt.Println(err != nil)
	// Output:
	// true
	// false
	// true
}
