package fake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	"github.com/kubewire/kubewire/codec"
)

// A custom resource's scale subresource reads and writes the paths of
// its definition, as kube-apiserver does.
func TestScaleCustomResource(t *testing.T) {
	s, c := newTestServer(t, Options{})
	err := s.AddCustomResource(CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true, Status: true,
		Scale: &CustomResourceScale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas", LabelSelectorPath: ".status.selector"}})
	if err != nil {
		t.Fatal(err)
	}
	const path = "/apis/example.com/v1/namespaces/default/widgets"
	c.mustDo(http.StatusCreated, "POST", path, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":2},"status":{"replicas":1,"selector":"app=w"}}`)
	c.mustDo(http.StatusCreated, "POST", path, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"empty"}}`)

	// Status was dropped on create (the status subresource owns it);
	// write it there.
	c.mustDo(http.StatusOK, "PUT", path+"/w/status", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":2},"status":{"replicas":1,"selector":"app=w"}}`)
	var sc autoscalingv1.Scale
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", path+"/w/scale", ""), &sc); err != nil {
		t.Fatal(err)
	}
	if sc.Kind != "Scale" || sc.APIVersion != "autoscaling/v1" || sc.Name != "w" || sc.Spec.Replicas != 2 || sc.Status.Replicas != 1 || sc.Status.Selector != "app=w" {
		t.Errorf("scale %+v", sc)
	}

	resp, body := c.do("GET", path+"/empty/scale", codec.MediaTypeJSON, "")
	if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(string(body), `the spec replicas field \".spec.replicas\" does not exist`) {
		t.Errorf("scale of an object without spec.replicas: %d %s", resp.StatusCode, body)
	}

	sc.Spec.Replicas = 5
	b, _ := json.Marshal(sc)
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "PUT", path+"/w/scale", string(b)), &sc); err != nil {
		t.Fatal(err)
	}
	var w struct {
		Metadata struct{ Generation int64 }
		Spec     struct{ Replicas int64 }
	}
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", path+"/w", ""), &w); err != nil {
		t.Fatal(err)
	}
	if sc.Spec.Replicas != 5 || w.Spec.Replicas != 5 || w.Metadata.Generation != 2 {
		t.Errorf("after scaling to 5: scale %d, object %d, generation %d", sc.Spec.Replicas, w.Spec.Replicas, w.Metadata.Generation)
	}

	// An object without the field gets it.
	sc.Name, sc.ResourceVersion, sc.Spec.Replicas = "empty", "", 3
	b, _ = json.Marshal(sc)
	c.mustDo(http.StatusOK, "PUT", path+"/empty/scale", string(b))
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", path+"/empty", ""), &w); err != nil {
		t.Fatal(err)
	}
	if w.Spec.Replicas != 3 {
		t.Errorf("empty scaled to %d", w.Spec.Replicas)
	}
}
