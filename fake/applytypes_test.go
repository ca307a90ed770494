package fake

import (
	"net/http"
	"strings"
	"testing"
)

// An applied configuration with a value of the wrong type is refused
// before anything merges, as kube-apiserver v1.36.3's field manager
// refuses it (e2e TestFuzzFidelity's reports).
func TestApplyTypeErrorsAsKubeAPIServer(t *testing.T) {
	_, c := newTestServer(t, Options{})
	const ct = "application/apply-patch+yaml"
	for _, tt := range []struct{ name, path, body, want string }{
		{"string for an integer", testCMs + "/t1", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generation":"Not_Valid!","name":"t1"}}`,
			`failed to create typed patch object (/t1; /v1, Kind=ConfigMap): .metadata.generation: expected numeric (int or float), got string`},
		{"number for a name", testCMs + "/t2", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":7}}`,
			`failed to create typed patch object (/; /v1, Kind=ConfigMap): .metadata.name: expected string, got \u0026value.valueUnstructured{Value:7}`},
		{"number in a set", testCMs + "/t3", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t3","finalizers":[7]}}`,
			`.metadata.finalizers[=7]: expected string, got \u0026value.valueUnstructured{Value:7}`},
		{"string for a boolean", testCMs + "/t4", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t4"},"immutable":"x"}`,
			`.immutable: expected boolean, got \u0026{x}`},
		{"keyed item without its key", "/api/v1/namespaces/default/serviceaccounts/t5", `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"t5"},"secrets":[{"namespace":"a"}]}`,
			`failed to create typed patch object (/t5; /v1, Kind=ServiceAccount): .secrets: element 0: associative list with keys has an element that omits all key fields [\"name\"] (and doesn't have default values for any key fields)`},
		{"item keyed by a required field's default", testCMs + "/t6", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t6","ownerReferences":[{"blockOwnerDeletion":""}]}}`,
			`.metadata.ownerReferences[uid=\"\"].blockOwnerDeletion: expected boolean, got \u0026{}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(c.mustPatch(http.StatusInternalServerError, tt.path+"?fieldManager=m", ct, tt.body))
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %s\nwant it to contain %s", got, tt.want)
			}
		})
	}
}

// A required key field's default keys the item: the apply reaches
// validation.
func TestApplyKeysItemByRequiredDefault(t *testing.T) {
	_, c := newTestServer(t, Options{})
	got := string(c.mustPatch(http.StatusUnprocessableEntity, testCMs+"/o?fieldManager=m", "application/apply-patch+yaml",
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"o","ownerReferences":[{"controller":true}]}}`))
	if !strings.Contains(got, "metadata.ownerReferences.uid") {
		t.Errorf("got %s", got)
	}
}

// Timestamps are parsed as kube-apiserver parses them: RFC 3339 for a
// Time, with microseconds for a MicroTime, "" refused (e2e
// TestFuzzFidelity's reports).
func TestTimestampsParsedAsKubeAPIServer(t *testing.T) {
	_, c := newTestServer(t, Options{})
	got := string(c.mustDo(http.StatusBadRequest, "POST", testCMs, `{"metadata":{"creationTimestamp":"","name":"t"}}`))
	if want := `ConfigMap in version \"v1\" cannot be handled as a ConfigMap: parsing time \"\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as \"2006\"`; !strings.Contains(got, want) {
		t.Errorf("create: got %s\nwant it to contain %s", got, want)
	}
	got = string(c.mustPatch(http.StatusInternalServerError, "/api/v1/namespaces/default/events/ev?fieldManager=m", "application/apply-patch+yaml",
		`{"apiVersion":"v1","kind":"Event","metadata":{"name":"ev"},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"series":{"lastObservedTime":"2026-01-02T03:04:05Z"}}`))
	if want := `failed to convert new object (/ev; /v1, Kind=Event) to proper version: unable to convert unstructured object to /v1, Kind=Event: parsing time \"2026-01-02T03:04:05Z\" as \"2006-01-02T15:04:05.000000Z07:00\": cannot parse \"Z\" as \".000000\"`; !strings.Contains(got, want) {
		t.Errorf("apply: got %s\nwant it to contain %s", got, want)
	}
	c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"creationTimestamp":null,"name":"ok"}}`)
}

// An applied port without a protocol is the TCP port, as kube-apiserver
// keys it: a second manager applying the same port conflicts with no
// one (e2e TestFuzzFidelity's reports).
func TestApplyKeysPortByDefaultProtocol(t *testing.T) {
	_, c := newTestServer(t, Options{})
	svc := "/api/v1/namespaces/default/services/s"
	const ct = "application/apply-patch+yaml"
	got := string(c.mustPatch(http.StatusCreated, svc+"?fieldManager=a", ct, `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"port":80}],"selector":{"app":"x"}}}`))
	if !strings.Contains(got, `"k:{\"port\":80,\"protocol\":\"TCP\"}"`) {
		t.Errorf("first apply's managedFields: %s", got)
	}
	c.mustPatch(http.StatusOK, svc+"?fieldManager=b", ct, `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"appProtocol":"example.com","port":80}],"selector":{"app":"x"}}}`)
}

// Types with their own decoders (a CRD schema's default and enum values)
// take any value: applying a CRD is not refused by the type check.
func TestApplyTypeCheckLeavesOwnDecodersAlone(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustPatch(http.StatusCreated, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.example.com?fieldManager=m", "application/apply-patch+yaml",
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"things.example.com"},"spec":{"group":"example.com","names":{"kind":"Thing","plural":"things"},"scope":"Namespaced",`+
			`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"mode":{"type":"string","default":"Allow","enum":["Allow","Forbid"]}}}}}]}}`)
}
