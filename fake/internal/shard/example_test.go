package shard_test

import (
	"fmt"

	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/shard"
)

// The lower half of the uid hash space; FNV-1a 64 of "a" is
// 0xaf63dc4c8601ec8c, in the upper half.
func ExampleParse() {
	sel, err := shard.Parse("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel.Matches(&object.Stored{UID: "a"}))
	_, err = shard.Parse("shardRange(object.metadata.name, '0x0', '0x1')")
	fmt.Println(err != nil)
	// Output:
	// false
	// true
}
