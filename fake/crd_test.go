package fake

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

const gadgetCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.test.example.com"},
"spec":{"group":"test.example.com","scope":"Namespaced","names":{"plural":"gadgets","kind":"Gadget"},
"versions":[{"name":"v1","served":true,"storage":true,
"subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas"}},
"additionalPrinterColumns":[{"name":"Size","type":"integer","jsonPath":".spec.size"}],
"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object","required":["size"],"properties":{
"size":{"type":"integer","maximum":10,"default":3},
"replicas":{"type":"integer"},
"ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port"],"items":{"type":"object","properties":{"port":{"type":"integer"},"proto":{"type":"string","default":"TCP"}}}}}},
"status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}}}]}}`

const gadgets = "/apis/test.example.com/v1/namespaces/default/gadgets"

func TestCRDLifecycle(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusNotFound, "GET", gadgets, "")
	created := c.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", gadgetCRD)
	var crd apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal(created, &crd); err != nil {
		t.Fatal(err)
	}
	// The create answers before the controllers run, as kube-apiserver does.
	if crd.Status.Conditions != nil || crd.Spec.Names.Singular != "gadget" || crd.Spec.Names.ListKind != "GadgetList" || crd.Spec.Conversion.Strategy != "None" {
		t.Errorf("created CRD: status %+v, names %+v, conversion %+v", crd.Status, crd.Spec.Names, crd.Spec.Conversion)
	}

	got := c.mustDo(http.StatusOK, "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.test.example.com", "")
	crd = apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(got, &crd); err != nil {
		t.Fatal(err)
	}
	var conditions []string
	for _, c := range crd.Status.Conditions {
		conditions = append(conditions, string(c.Type)+"="+string(c.Status)+" "+c.Reason)
	}
	if diff := cmp.Diff([]string{"NamesAccepted=True NoConflicts", "Established=True InitialNamesAccepted"}, conditions); diff != "" {
		t.Errorf("conditions (-want +got)\n%s", diff)
	}
	if crd.Status.AcceptedNames.Plural != "gadgets" || len(crd.Status.StoredVersions) != 1 {
		t.Errorf("status %+v", crd.Status)
	}
	if n := len(crd.ManagedFields); n != 2 || crd.ManagedFields[1].Manager != "kube-apiserver" || crd.ManagedFields[1].Subresource != "status" {
		t.Errorf("managedFields %+v", crd.ManagedFields)
	}

	// Served, listed in discovery, validated, pruned and defaulted.
	c.mustDo(http.StatusOK, "GET", gadgets, "")
	if b := c.mustDo(http.StatusOK, "GET", "/apis/test.example.com", ""); !strings.Contains(string(b), `"preferredVersion":{"groupVersion":"test.example.com/v1"`) {
		t.Errorf("APIGroup: %s", b)
	}
	resp, b := c.do("POST", gadgets, "", `{"apiVersion":"test.example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"bogus":1,"ports":[{"port":80}]}}`)
	if resp.StatusCode != http.StatusCreated || resp.Header.Get("Warning") != `299 - "unknown field \"spec.bogus\""` {
		t.Fatalf("create: %d %v %s", resp.StatusCode, resp.Header["Warning"], b)
	}
	var g map[string]any
	_ = json.Unmarshal(b, &g)
	if diff := cmp.Diff(map[string]any{"size": float64(3), "ports": []any{map[string]any{"port": float64(80), "proto": "TCP"}}}, g["spec"]); diff != "" {
		t.Errorf("spec (-want +got)\n%s", diff)
	}
	b = c.mustDo(http.StatusUnprocessableEntity, "POST", gadgets, `{"apiVersion":"test.example.com/v1","kind":"Gadget","metadata":{"name":"big"},"spec":{"size":11}}`)
	if !strings.Contains(string(b), `Gadget.test.example.com \"big\" is invalid: spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10`) {
		t.Errorf("invalid create: %s", b)
	}
	b = c.mustDo(http.StatusBadRequest, "POST", gadgets, `{"apiVersion":"test.example.com/v1","metadata":{"name":"nokind"}}`)
	if !strings.Contains(string(b), `Object 'Kind' is missing`) {
		t.Errorf("create without kind: %s", b)
	}

	// The scale subresource reads and writes the CRD's paths.
	req := c.request("PATCH", gadgets+"/g", "", `{"spec":{"replicas":1}}`)
	req.Header.Set("Content-Type", "application/merge-patch+json")
	if resp, err := c.hc.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("merge patch: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	c.mustDo(http.StatusOK, "PUT", gadgets+"/g/scale", `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"g"},"spec":{"replicas":4}}`)
	_ = json.Unmarshal(c.mustDo(http.StatusOK, "GET", gadgets+"/g", ""), &g)
	if r := g["spec"].(map[string]any)["replicas"]; r != float64(4) {
		t.Errorf("replicas after scaling: %v", r)
	}

	// Deleting the CRD deletes its objects and stops serving it.
	c.mustDo(http.StatusOK, "DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.test.example.com", "")
	c.mustDo(http.StatusNotFound, "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.test.example.com", "")
	resp, b = c.do("GET", gadgets, "", "")
	if resp.StatusCode != http.StatusNotFound || string(b) != "404 page not found\n" {
		t.Errorf("after deletion: %d %q", resp.StatusCode, b)
	}
	c.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", gadgetCRD)
	if b := c.mustDo(http.StatusOK, "GET", gadgets, ""); strings.Contains(string(b), `"name":"g"`) {
		t.Errorf("objects of a deleted CRD came back: %s", b)
	}
}

func TestCRDValidation(t *testing.T) {
	_, c := newTestServer(t, Options{})
	b := c.mustDo(http.StatusUnprocessableEntity, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
		strings.Replace(gadgetCRD, `"name":"gadgets.test.example.com"`, `"name":"wrong.test.example.com"`, 1))
	if !strings.Contains(string(b), `metadata.name: Invalid value: \"wrong.test.example.com\": must be spec.names.plural+\".\"+spec.group`) {
		t.Errorf("wrong name: %s", b)
	}
}

func TestWritesRecordManagedFields(t *testing.T) {
	_, c := newTestServer(t, Options{})
	req := c.request("POST", "/api/v1/namespaces/default/configmaps", "", `{"metadata":{"name":"a"},"data":{"k":"v"}}`)
	req.Header.Set("User-Agent", "my-controller/1.2 (linux)")
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var cm struct{ Metadata metav1.ObjectMeta }
	_ = json.NewDecoder(resp.Body).Decode(&cm)
	resp.Body.Close()
	if mf := cm.Metadata.ManagedFields; len(mf) != 1 || mf[0].Manager != "my-controller" || mf[0].Operation != "Update" || string(mf[0].FieldsV1.Raw) != `{"f:data":{".":{},"f:k":{}}}` {
		t.Errorf("managedFields %+v", mf)
	}

	apply := func(manager, value string, force bool) (*http.Response, []byte) {
		q := "?fieldManager=" + manager
		if force {
			q += "&force=true"
		}
		req := c.request("PATCH", "/api/v1/namespaces/default/configmaps/a"+q, "", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"`+value+`"}}`)
		req.Header.Set("Content-Type", "application/apply-patch+yaml")
		resp, err := c.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, b := apply("ssa", "w", false)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(string(b), `conflict with \"my-controller\" using v1: .data.k`) || !strings.Contains(string(b), `"reason":"FieldManagerConflict"`) {
		t.Errorf("conflicting apply: %d %s", resp.StatusCode, b)
	}
	if resp, b := apply("ssa", "w", true); resp.StatusCode != http.StatusOK {
		t.Errorf("forced apply: %d %s", resp.StatusCode, b)
	}
}

func TestCRDServesEveryVersion(t *testing.T) {
	_, c := newTestServer(t, Options{})
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"things.test.example.com"},
"spec":{"group":"test.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[
{"name":"v1beta1","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`
	c.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)
	c.mustDo(http.StatusCreated, "POST", "/apis/test.example.com/v1beta1/namespaces/default/things", `{"apiVersion":"test.example.com/v1beta1","kind":"Thing","metadata":{"name":"t"},"x":1}`)
	for _, v := range []string{"v1", "v1beta1"} {
		var got map[string]any
		_ = json.Unmarshal(c.mustDo(http.StatusOK, "GET", "/apis/test.example.com/"+v+"/namespaces/default/things/t", ""), &got)
		if got["apiVersion"] != "test.example.com/"+v || got["x"] != float64(1) {
			t.Errorf("GET at %s: %v", v, got)
		}
		var list struct{ Items []map[string]any }
		_ = json.Unmarshal(c.mustDo(http.StatusOK, "GET", "/apis/test.example.com/"+v+"/namespaces/default/things", ""), &list)
		if len(list.Items) != 1 || list.Items[0]["apiVersion"] != "test.example.com/"+v {
			t.Errorf("list at %s: %v", v, list.Items)
		}
	}
}

func TestAddCustomResourceVersions(t *testing.T) {
	s, c := newTestServer(t, Options{})
	for _, v := range []string{"v1", "v2"} {
		if err := s.AddCustomResource(CustomResource{Group: "test.example.com", Version: v, Kind: "Widget", Resource: "widgets", Namespaced: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddCustomResource(CustomResource{Group: "test.example.com", Version: "v2", Kind: "Widget", Resource: "widgets", Namespaced: true}); err == nil {
		t.Error("adding a served version again succeeded")
	}
	c.mustDo(http.StatusCreated, "POST", "/apis/test.example.com/v2/namespaces/default/widgets", `{"apiVersion":"test.example.com/v2","kind":"Widget","metadata":{"name":"w"}}`)
	c.mustDo(http.StatusOK, "GET", "/apis/test.example.com/v1/namespaces/default/widgets/w", "")
}
