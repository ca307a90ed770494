package e2e

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/kubewire/kubewire/api/builtin"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/e2e/harness"
)

// message is a generated type: JSON through encoding/json, protobuf
// through its own Marshal and Unmarshal.
type message interface {
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// seedObjects creates the objects in testdata/objects.json (namespace
// "decode"), setting the status of those that carry one through the
// status subresource, as a controller would.
func seedObjects(t *testing.T, a *api) {
	t.Helper()
	if err := a.c.CreateNamespace(t.Context(), "decode"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/objects.json")
	if err != nil {
		t.Fatal(err)
	}
	var objs []struct {
		Path   string
		Object map[string]any
	}
	if err := json.Unmarshal(b, &objs); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		status, hasStatus := o.Object["status"]
		_, created := a.must(201, "POST", o.Path, "application/json", o.Object)
		if !hasStatus {
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal(created, &obj); err != nil {
			t.Fatal(err)
		}
		obj["status"] = status
		name := obj["metadata"].(map[string]any)["name"].(string)
		a.must(200, "PUT", o.Path+"/"+name+"/status", "application/json", obj)
	}
}

// TestEveryKindDecodes lists every kind kubewire's registry says the
// server serves, in JSON and in protobuf at the same resource version, and
// checks that kubewire's generated list types decode both to equal values
// and re-encode the protobuf byte for byte. Objects of most namespaced
// kinds are created first (testdata/objects.json); the server's own
// objects (RBAC roles, flow schemas, leases, the kubernetes Service...)
// cover the rest.
func TestEveryKindDecodes(t *testing.T) {
	c := harness.Shared(t, "default", harness.Options{})
	a := newAPI(t, c)
	seedObjects(t, a)

	kinds, withItems := 0, 0
	for _, k := range registry.All() {
		if k.ListKind == "" || !k.HasVerb("list") {
			continue
		}
		if k.Group == "" && k.Kind == "ComponentStatus" {
			// Not stored: each list probes the components anew and
			// returns them in random order, so no two lists agree.
			continue
		}
		kinds++
		t.Run(k.APIVersion()+"/"+k.Kind, func(t *testing.T) {
			a := newAPI(t, c)
			path := k.PathPrefix() + "/" + k.Resource
			_, jsonBody := a.must(200, "GET", path, "application/json", nil)
			fromJSON := newList(t, k)
			if err := codec.DecodeJSON(jsonBody, fromJSON); err != nil {
				t.Fatalf("JSON: %v", err)
			}
			var meta struct {
				Metadata struct{ ResourceVersion string }
				Items    []json.RawMessage
			}
			if err := json.Unmarshal(jsonBody, &meta); err != nil {
				t.Fatal(err)
			}
			// The same snapshot in protobuf: lists of leases and events
			// change on their own. (ComponentStatus is not stored and
			// has no resource version.)
			pbPath := path
			if rv := meta.Metadata.ResourceVersion; rv != "" {
				pbPath += "?" + url.Values{"resourceVersion": {rv}, "resourceVersionMatch": {"Exact"}}.Encode()
			}
			h, pbBody := a.must(200, "GET", pbPath, codec.MediaTypeProtobuf, nil)
			if ct := h.Get("Content-Type"); ct != codec.MediaTypeProtobuf {
				t.Fatalf("Content-Type %q", ct)
			}
			env, err := codec.DecodeEnvelope(pbBody)
			if err != nil {
				t.Fatal(err)
			}
			if env.TypeMeta.APIVersion != k.APIVersion() || env.TypeMeta.Kind != k.ListKind {
				t.Errorf("envelope type %s %s, want %s %s", env.TypeMeta.APIVersion, env.TypeMeta.Kind, k.APIVersion(), k.ListKind)
			}
			fromPB := newList(t, k)
			if err := codec.DecodeProtobuf(pbBody, fromPB); err != nil {
				t.Fatalf("protobuf: %v", err)
			}
			opts := []cmp.Option{nestedTypeMeta}
			if len(meta.Items) == 0 {
				// "items": [] decodes to an empty slice; protobuf has
				// nothing to say about an empty repeated field.
				opts = append(opts, cmpopts.EquateEmpty())
			}
			if diff := cmp.Diff(fromJSON, fromPB, opts...); diff != "" {
				t.Errorf("JSON and protobuf decode differently (-json +protobuf):\n%s", diff)
			}
			again, err := fromPB.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, env.Raw) {
				t.Errorf("re-encoded protobuf (%d bytes) differs from the server's (%d bytes)", len(again), len(env.Raw))
			}
			if len(meta.Items) > 0 {
				withItems++
			}
			t.Logf("%d items", len(meta.Items))
		})
	}
	t.Logf("%d kinds listed, %d with objects", kinds, withItems)
	if kinds < 50 {
		t.Errorf("only %d listable kinds in the registry", kinds)
	}
}

// nestedTypeMeta ignores TypeMeta below the list's own. Protobuf messages
// have no field for it (the envelope carries the top-level object's),
// while the JSON encoder writes it for some embedded objects, such as a
// StatefulSet's volumeClaimTemplates.
var nestedTypeMeta = cmp.FilterPath(func(p cmp.Path) bool {
	sf, ok := p.Last().(cmp.StructField)
	return ok && sf.Name() == "TypeMeta" && len(p) > 3
}, cmp.Ignore())

func newList(t *testing.T, k registry.Kind) message {
	t.Helper()
	v, ok := builtin.NewList(k.APIVersion(), k.ListKind)
	if !ok {
		t.Fatalf("builtin.NewList(%s, %s) has no type", k.APIVersion(), k.ListKind)
	}
	m, ok := v.(message)
	if !ok {
		t.Fatalf("%T has no protobuf methods", v)
	}
	return m
}
