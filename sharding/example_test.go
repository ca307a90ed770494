package sharding_test

import (
	"context"
	"fmt"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/sharding"
)

// Assign gives each member its share of the slots, the same on every
// replica that sees the same members.
func ExampleAssign() {
	members := []string{"replica-a", "replica-b", "replica-c"}
	owner := sharding.Assign(members, 8)
	for slot, m := range owner {
		fmt.Printf("slot %d: %s\n", slot, members[m])
	}
	// Output:
	// slot 0: replica-a
	// slot 1: replica-b
	// slot 2: replica-c
	// slot 3: replica-b
	// slot 4: replica-c
	// slot 5: replica-a
	// slot 6: replica-c
	// slot 7: replica-b
}

// printer is a Consumer that remembers the last part it was given.
type printer struct{ last chan client.ShardSelector }

func (p printer) SetShard(sel client.ShardSelector) error {
	select {
	case <-p.last:
	default:
	}
	p.last <- sel
	return nil
}

// A member alone in its ring holds the whole hash space.
func ExampleMember() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	m, err := sharding.New(c, sharding.Config{Namespace: "default", Name: "widget-operator", Identity: "replica-a", Slots: 4})
	if err != nil {
		panic(err)
	}
	p := printer{last: make(chan client.ShardSelector, 1)}
	m.Add(p)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	sel := <-p.last
	// Parts come as the member acts on its slots: wait for the part of
	// all four.
	for st := m.Status(); st.Acting < 4 || !st.Selector.Equal(sel); st = m.Status() {
		sel = <-p.last
	}
	fmt.Println(m.Status().Members, sel)
	cancel()
	fmt.Println(<-done, m.Ready() != nil)
	// Output:
	// [replica-a] shardRange(object.metadata.uid, '0x0000000000000000', '0x10000000000000000')
	// <nil> true
}
