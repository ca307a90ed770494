package envtest_test

import (
	"context"
	"fmt"
	"log"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/envtest"
)

// Start runs a real kube-apiserver (building it the first time) that a
// kubewire client reaches through Env.Config. In a test, use
// StartForTest, which also stops it.
func ExampleStart() {
	ctx := context.Background()
	env, err := envtest.Start(ctx, envtest.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer env.Stop()

	c, err := client.New(env.Config())
	if err != nil {
		log.Fatal(err)
	}
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")
	cm := &corev1.ConfigMap{Data: map[string]string{"greeting": "hello"}}
	cm.Name = "demo"
	if _, err := cms.Create(ctx, cm, client.CreateOptions{}); err != nil {
		log.Fatal(err)
	}
	got, err := cms.Get(ctx, "demo", client.GetOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Data["greeting"])
}

// InstallCRDs applies CustomResourceDefinitions and returns once their
// resources are served, so the next request can use them.
func ExampleEnv_InstallCRDs() {
	ctx := context.Background()
	env, err := envtest.Start(ctx, envtest.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer env.Stop()
	crd := []byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`)
	if err := env.InstallCRDs(ctx, crd); err != nil {
		log.Fatal(err)
	}
}
