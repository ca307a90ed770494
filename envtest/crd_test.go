//go:build unix

package envtest_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/envtest"
)

// TestCRDs installs definitions at start (a folder with YAML and JSON
// files) and later (a new version of one), and uses each as soon as the
// install returns: served means usable, with no retry by the caller.
func TestCRDs(t *testing.T) {
	env := envtest.StartForTest(t, envtest.Options{Name: "crds", CRDPaths: []string{"testdata/crds"}})
	ctx := t.Context()
	c, err := client.New(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	crontabs := func(version string) *client.Resource[*unstructured.Unstructured] {
		return client.Dynamic(c, client.GroupVersionResource{Group: "stable.example.com", Version: version, Resource: "crontabs"}).Namespace("default")
	}

	ct := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "nightly"},
		"spec":     map[string]any{"cronSpec": "0 3 * * *", "replicas": int64(2)},
	}}
	if _, err := crontabs("v1").Create(ctx, ct, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := crontabs("v1beta1").Get(ctx, "nightly", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if spec, _ := got.Object["spec"].(map[string]any); spec["cronSpec"] != "0 3 * * *" {
		t.Errorf("v1beta1 view: %v", got.Object)
	}
	widgets := client.Dynamic(c, client.GroupVersionResource{Group: "example.kubewire.dev", Version: "v1alpha1", Resource: "widgets"})
	if _, err := widgets.List(ctx, client.ListOptions{}); err != nil {
		t.Errorf("list widgets: %v", err)
	}

	// A new served version, applied over the installed definition.
	b, err := os.ReadFile("testdata/crds/crontab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	v2 := strings.Replace(string(b), "  versions:\n", `  versions:
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`, 1)
	if err := env.InstallCRDs(ctx, []byte(v2)); err != nil {
		t.Fatal(err)
	}
	if _, err := crontabs("v2").Get(ctx, "nightly", client.GetOptions{}); err != nil {
		t.Errorf("get through the new version right after InstallCRDs: %v", err)
	}

	// A definition kube-apiserver rejects fails with its reason.
	bad := []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: wrong.example.com}\nspec: {group: other.example.com, scope: Namespaced, names: {plural: things, kind: Thing}, versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]}\n")
	err = env.InstallCRDs(ctx, bad)
	if !errors.Is(err, client.ErrInvalid) || !strings.Contains(err.Error(), "wrong.example.com") {
		t.Errorf("InstallCRDs of an invalid definition: %v", err)
	}
}
