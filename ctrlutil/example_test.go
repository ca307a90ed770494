package ctrlutil_test

import (
	"context"
	"fmt"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/ctrlutil"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

func Example() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	configMaps := client.For[*corev1.ConfigMap](c)
	owner, err := configMaps.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "owner"}}, client.CreateOptions{})
	if err != nil {
		panic(err)
	}

	desired := func(cm *corev1.ConfigMap) error {
		cm.Data = map[string]string{"color": "blue"}
		ctrlutil.AddFinalizer(cm, "example.com/cleanup")
		return ctrlutil.SetControllerReference(owner, cm)
	}
	for range 2 { // the second time, nothing is sent
		obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "owned"}}
		_, op, err := ctrlutil.CreateOrPatch(ctx, configMaps, nil, obj, desired)
		if err != nil {
			panic(err)
		}
		fmt.Println(op)
	}

	// Another controller cannot take it over.
	other := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "other", UID: "1234"}}
	owned, _ := configMaps.Namespace("default").Get(ctx, "owned", client.GetOptions{})
	fmt.Println(ctrlutil.SetControllerReference(other, owned))
	// Output:
	// created
	// unchanged
	// ctrlutil: ConfigMap default/owned is controlled by ConfigMap owner, not Secret other: object already has another controller
}

func ExampleSetStatusCondition() {
	var conds []metav1.Condition
	ready := metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Creating", Message: "waiting for the ConfigMap"}
	fmt.Println(ctrlutil.SetStatusCondition(&conds, ready)) // added
	fmt.Println(ctrlutil.SetStatusCondition(&conds, ready)) // as it was: no change, so Patch sends nothing
	ready.Status, ready.Reason, ready.Message = metav1.ConditionTrue, "ConfigMapWritten", ""
	fmt.Println(ctrlutil.SetStatusCondition(&conds, ready), ctrlutil.IsStatusConditionTrue(conds, "Ready"))
	// Output:
	// true
	// false
	// true true
}
