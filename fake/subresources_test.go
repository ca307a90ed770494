package fake

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestPostSubresources sends binding, eviction and token requests and
// checks the codes and the state they leave, as kube-apiserver answers
// them.
func TestPostSubresources(t *testing.T) {
	_, c := newTestServer(t, Options{})
	ns := "/api/v1/namespaces/default/"
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"serviceaccounts", `{"metadata":{"name":"sa"}}`)

	binding := func(node string) string {
		return `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p"},"target":{"kind":"Node","name":"` + node + `"}}`
	}
	steps := []struct {
		name, method, path, body string
		code                     int
	}{
		{"bind", "POST", ns + "pods/p/binding", binding("n1"), http.StatusCreated},
		{"bind again", "POST", ns + "pods/p/binding", binding("n2"), http.StatusConflict},
		{"bind a missing pod", "POST", ns + "pods/missing/binding", strings.Replace(binding("n1"), `"p"`, `"missing"`, 1), http.StatusNotFound},
		// The names are compared before the Pod is read (seeds 4000, 4002...).
		{"bind a missing pod naming another", "POST", ns + "pods/missing/binding", binding("n1"), http.StatusBadRequest},
		{"bind naming another pod", "POST", ns + "pods/p/binding", strings.Replace(binding("n3"), `"p"`, `"q"`, 1), http.StatusBadRequest},
		{"get a binding", "GET", ns + "pods/p/binding", "", http.StatusMethodNotAllowed},
		{"token", "POST", ns + "serviceaccounts/sa/token", `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{}}`, http.StatusCreated},
		{"token of a missing account", "POST", ns + "serviceaccounts/missing/token", `{"spec":{}}`, http.StatusNotFound},
		{"token of a configmap", "POST", ns + "configmaps/x/token", `{}`, http.StatusNotFound},
		{"evict", "POST", ns + "pods/p/eviction", `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"p"}}`, http.StatusCreated},
		{"evict a missing pod", "POST", ns + "pods/missing/eviction", `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"missing"}}`, http.StatusNotFound},
		{"evict naming another pod", "POST", ns + "pods/missing/eviction", `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"p"}}`, http.StatusBadRequest},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			c.t = t
			resp, b := c.do(st.method, st.path, "", st.body)
			if resp.StatusCode != st.code {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, st.code, b)
			}
		})
	}

	c.t = t
	var pod struct {
		Metadata struct{ DeletionTimestamp string }
		Spec     struct{ NodeName string }
		Status   struct {
			Conditions []struct{ Type, Status string }
		}
	}
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", ns+"pods/p", ""), &pod); err != nil {
		t.Fatal(err)
	}
	if pod.Spec.NodeName != "n1" || pod.Metadata.DeletionTimestamp == "" {
		t.Errorf("evicted bound pod: node %q, deletionTimestamp %q; want n1 and set", pod.Spec.NodeName, pod.Metadata.DeletionTimestamp)
	}
	conds := map[string]string{}
	for _, cond := range pod.Status.Conditions {
		conds[cond.Type] = cond.Status
	}
	if conds["PodScheduled"] != "True" || conds["DisruptionTarget"] != "True" {
		t.Errorf("conditions %v, want PodScheduled and DisruptionTarget True", conds)
	}

	var tr struct {
		Status struct{ Token string }
	}
	if err := json.Unmarshal(c.mustDo(http.StatusCreated, "POST", ns+"serviceaccounts/sa/token", `{"spec":{"expirationSeconds":600}}`), &tr); err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(tr.Status.Token, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q is not a JWT", tr.Status.Token)
	}
	claims, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil || !strings.Contains(string(claims), `"sub":"system:serviceaccount:default:sa"`) {
		t.Errorf("claims %s (%v) do not name the account", claims, err)
	}
}
