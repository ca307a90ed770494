package controller_test

import (
	"context"
	"fmt"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/ctrlutil"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
)

// A controller giving every ConfigMap labelled app=web a Secret of the
// same name that it owns.
func Example() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	web := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"app": "web"}}, Data: map[string]string{"password": "hunter2"}}
	if err := srv.Add(web); err != nil {
		panic(err)
	}

	factory, err := informer.NewFactory(c, informer.FactoryOptions{})
	if err != nil {
		panic(err)
	}
	configMaps := informer.Shared[*corev1.ConfigMap](factory, informer.Scope{LabelSelector: client.MatchLabels(map[string]string{"app": "web"})})
	secrets := informer.Shared[*corev1.Secret](factory, informer.Scope{})
	secretAPI := client.For[*corev1.Secret](c)

	ctx, cancel := context.WithCancel(context.Background())
	reconcile := func(ctx context.Context, req controller.Request) (controller.Result, error) {
		cm, ok := configMaps.Lister().Get(req.Namespace, req.Name)
		if !ok {
			return controller.Result{}, nil
		}
		secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}}
		_, op, err := ctrlutil.CreateOrUpdate(ctx, secretAPI, secrets.Lister(), secret, func(s *corev1.Secret) error {
			s.StringData = map[string]string{"password": cm.Data["password"]}
			return ctrlutil.SetControllerReference(cm, s)
		})
		fmt.Printf("reconciled %s: secret %s\n", req, op)
		cancel() // the example ends here
		return controller.Result{}, err
	}
	ctl, err := controller.New("secrets", configMaps, controller.ReconcilerFunc(reconcile), controller.Options{ReadYourWrites: true})
	if err != nil {
		panic(err)
	}
	controller.Owns(ctl, secrets)

	informers := make(chan error, 1)
	go func() { informers <- factory.Run(ctx) }()
	if err := ctl.Run(ctx); err != nil {
		panic(err)
	}
	<-informers
	s, err := secretAPI.Namespace("default").Get(context.Background(), "web", client.GetOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("owner:", s.OwnerReferences[0].Kind, s.OwnerReferences[0].Name)
	// Output:
	// reconciled default/web: secret created
	// owner: ConfigMap web
}
