package crosscheck

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	kwruntime "github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

// TestFixturesDecodeLikeUpstream decodes every protobuf response captured
// from kube-apiserver with both kubewire and the upstream types, and
// compares the JSON each produces.
func TestFixturesDecodeLikeUpstream(t *testing.T) {
	pairs := map[string]messagePair{}
	for _, p := range messagePairs() {
		pairs[p.name] = p
	}
	// envelope apiVersion/kind -> pair name
	byKind := map[string]string{
		"v1/Pod": "core/v1.Pod", "v1/PodList": "core/v1.PodList", "v1/ConfigMap": "core/v1.ConfigMap",
		"v1/ConfigMapList": "core/v1.ConfigMapList", "v1/Secret": "core/v1.Secret", "v1/Service": "core/v1.Service",
		"v1/Namespace": "core/v1.Namespace", "v1/Status": "meta/v1.Status",
		"apps/v1/Deployment":                               "apps/v1.Deployment",
		"coordination.k8s.io/v1/Lease":                     "coordination/v1.Lease",
		"apiextensions.k8s.io/v1/CustomResourceDefinition": "apiextensions/v1.CustomResourceDefinition",
		"meta.k8s.io/v1/PartialObjectMetadataList":         "meta/v1.PartialObjectMetadataList",
	}
	checked := 0
	for _, folder := range []string{"objects", "lists", "meta", "errors"} {
		names, err := fixture.List(folder)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			r, err := fixture.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(r.Body, []byte("k8s\x00")) {
				continue
			}
			t.Run(name, func(t *testing.T) {
				var env kwruntime.Unknown
				if err := env.Unmarshal(r.Body[4:]); err != nil {
					t.Fatal(err)
				}
				pairName, ok := byKind[env.APIVersion+"/"+env.Kind]
				if !ok {
					t.Fatalf("no type for %s/%s", env.APIVersion, env.Kind)
				}
				pair := pairs[pairName]
				up, kw := pair.upstream(), pair.kubewire()
				if err := up.Unmarshal(env.Raw); err != nil {
					t.Fatalf("upstream: %v", err)
				}
				if err := kw.Unmarshal(env.Raw); err != nil {
					t.Fatalf("kubewire: %v", err)
				}
				if diff := cmp.Diff(normalizeJSON(t, mustJSON(t, up)), normalizeJSON(t, mustJSON(t, kw))); diff != "" {
					t.Fatalf("JSON differs (-upstream +kubewire):\n%s", diff)
				}
				var upBytes, kwBytes []byte
				if upBytes, err = up.Marshal(); err != nil {
					t.Fatal(err)
				}
				if kwBytes, err = kw.Marshal(); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(upBytes, kwBytes) || !bytes.Equal(kwBytes, env.Raw) {
					t.Fatalf("re-encodings differ: server %d bytes, upstream %d, kubewire %d", len(env.Raw), len(upBytes), len(kwBytes))
				}
			})
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d protobuf fixtures found", checked)
	}
}
