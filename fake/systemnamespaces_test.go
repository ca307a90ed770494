package fake

import (
	"encoding/json"
	"strconv"
	"testing"
)

// kube-apiserver creates its namespaces kube-system, kube-public,
// default and kube-node-lease in that order, each with a managedFields
// entry of manager kube-apiserver for the name label (as a
// GET /api/v1/namespaces/default of v1.36.3 shows). Found by
// TestGeneratedSequences (seed 1): the fake's had none, and came in
// another order.
func TestSystemNamespacesAsKubeAPIServer(t *testing.T) {
	_, c := newTestServer(t, Options{})
	var rvs []uint64
	for _, name := range []string{"kube-system", "kube-public", "default", "kube-node-lease"} {
		var ns struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
				ManagedFields   []struct {
					Manager, Operation, APIVersion, FieldsType string
					FieldsV1                                   json.RawMessage
				} `json:"managedFields"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(c.mustDo(200, "GET", "/api/v1/namespaces/"+name, ""), &ns); err != nil {
			t.Fatal(err)
		}
		mf := ns.Metadata.ManagedFields
		if len(mf) != 1 || mf[0].Manager != "kube-apiserver" || mf[0].Operation != "Update" || mf[0].APIVersion != "v1" || mf[0].FieldsType != "FieldsV1" ||
			string(mf[0].FieldsV1) != `{"f:metadata":{"f:labels":{".":{},"f:kubernetes.io/metadata.name":{}}}}` {
			t.Errorf("namespace %s: managedFields %+v, want one Update by kube-apiserver of the name label", name, mf)
		}
		rv, _ := strconv.ParseUint(ns.Metadata.ResourceVersion, 10, 64)
		rvs = append(rvs, rv)
	}
	for i := 1; i < len(rvs); i++ {
		if rvs[i] <= rvs[i-1] {
			t.Errorf("resource versions %v: want kube-system, kube-public, default, kube-node-lease created in that order", rvs)
		}
	}
}

// A namespace created with generateName gets the name label with its
// generated name, as kube-apiserver labels it. Found by
// TestGeneratedSequences seed 11: the fake left it out.
func TestGeneratedNamespaceNameLabel(t *testing.T) {
	_, c := newTestServer(t, Options{})
	var ns struct {
		Metadata struct {
			Name   string            `json:"name"`
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(c.mustDo(201, "POST", "/api/v1/namespaces", `{"metadata":{"generateName":"g-"}}`), &ns); err != nil {
		t.Fatal(err)
	}
	if ns.Metadata.Name == "" || ns.Metadata.Labels["kubernetes.io/metadata.name"] != ns.Metadata.Name {
		t.Errorf("namespace %q labels %v, want kubernetes.io/metadata.name=%s", ns.Metadata.Name, ns.Metadata.Labels, ns.Metadata.Name)
	}
}
