package kinds

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/kubewire/kubewire/internal/codegen/load"
)

func TestOf(t *testing.T) {
	l, pkgs, err := load.Load("", "./testdata/shop/v1")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Of(l, pkgs[0])
	if err != nil {
		t.Fatal(err)
	}
	if p.Group != "shop.example.com" || p.Version != "v1" {
		t.Errorf("group version %s %s", p.Group, p.Version)
	}
	want := []*Kind{
		{Doc: "Basket is a kind with a list type of its own.", Group: "shop.example.com", Version: "v1", Kind: "Basket", ListKind: "BasketList",
			Plural: "baskets", Singular: "basket", Namespaced: true},
		{Doc: "Order is a kind.", Group: "shop.example.com", Version: "v1", Kind: "Order", ListKind: "OrderList",
			Plural: "orders", Singular: "order", ShortNames: []string{"ord"}, Categories: []string{"shop"}, Status: true,
			PrintColumns: []PrintColumn{{Name: "Total", Type: "number", JSONPath: ".spec.total", Priority: 2}}},
	}
	if diff := cmp.Diff(want, p.Kinds, cmpopts.IgnoreFields(Kind{}, "Type")); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if p.Lists["Basket"] == nil || p.Lists["Order"] != nil {
		t.Errorf("lists %v", p.Lists)
	}
}

func TestIsVersion(t *testing.T) {
	for v, want := range map[string]bool{"v1": true, "v2beta3": true, "v1alpha1": true, "v0": false, "v1beta": false, "api": false, "v1rc1": false} {
		if isVersion(v) != want {
			t.Errorf("isVersion(%q) = %t", v, !want)
		}
	}
}
