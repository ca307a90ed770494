package cborwalk_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/internal/cborwalk"
)

// An item arriving a few bytes at a time: the walk goes on from where it
// stopped and says when the item may be whole; ItemEnd then checks it.
func Example() {
	item, _ := cborwire.FromJSON([]byte(`{"type":"ADDED","object":{"a":[1,2,3]}}`))
	var w cborwalk.Walk
	for have := 4; ; have += 4 {
		have = min(have, len(item))
		if w.Advance(item[:have]) {
			n, err := cborwire.ItemEnd(item[:have])
			fmt.Println("whole after", have, "of", len(item), "bytes:", n, err)
			return
		}
		fmt.Println("at least", w.Least(), "bytes")
	}
	// Output:
	// at least 8 bytes
	// at least 11 bytes
	// at least 14 bytes
	// at least 18 bytes
	// at least 23 bytes
	// at least 29 bytes
	// at least 29 bytes
	// whole after 29 of 29 bytes: 29 <nil>
}
