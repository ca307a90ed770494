package fake

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A server-side apply of the scale subresource works out ownership on
// the Scale as kube-apiserver's scale handler does, as a Scale PUT does:
// conflicts name the Scale's version (autoscaling/v1), the applier's
// entry takes no time, an update manager owning replicas loses them to
// an entry of its own without a time even when the apply leaves replicas
// out, and a Deployment whose replicas nobody owns meets
// "before-first-apply". Each expectation is what kube-apiserver v1.36.3
// answered to the same requests (curl). Before, the apply ran on the
// Deployment: conflicts named apps/v1 and the applier's entry had a time.
func TestScaleApplyManagedFields(t *testing.T) {
	_, c := newTestServer(t, Options{})
	const deployments = "/apis/apps/v1/namespaces/default/deployments"
	create := func(name, query string) {
		c.mustDo(201, "POST", deployments+query, fmt.Sprintf(`{"metadata":{"name":%q},"spec":{"replicas":1,"selector":{"matchLabels":{"app":%q}},"template":{"metadata":{"labels":{"app":%q}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`, name, name, name))
	}
	scale := func(name string, replicas int) string {
		return fmt.Sprintf(`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":%q},"spec":{"replicas":%d}}`, name, replicas)
	}
	entries := func(name string) []string {
		var d struct {
			Metadata struct {
				ManagedFields []struct {
					Manager, Operation, Subresource string
					Time                            *string
					FieldsV1                        json.RawMessage
				}
			}
		}
		if err := json.Unmarshal(c.mustDo(200, "GET", deployments+"/"+name, ""), &d); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range d.Metadata.ManagedFields {
			s := e.Manager + " " + e.Operation + " " + e.Subresource
			if e.Time != nil {
				s += " timed"
			}
			if string(e.FieldsV1) == `{"f:spec":{"f:replicas":{}}}` {
				s += " replicas"
			} else if strings.Contains(string(e.FieldsV1), `"f:replicas"`) {
				s += " +replicas"
			}
			out = append(out, s)
		}
		return out
	}
	check := func(name string, want ...string) {
		t.Helper()
		if got := entries(name); !slices.Equal(got, want) {
			t.Errorf("%s managedFields %q, want %q", name, got, want)
		}
	}
	apply := func(code int, name, query, body string) string {
		t.Helper()
		return string(c.mustPatch(code, deployments+"/"+name+"/scale"+query, "application/apply-patch+yaml", body))
	}

	create("a", "?fieldManager=creator")
	if got := apply(409, "a", "?fieldManager=m1", scale("a", 2)); !strings.Contains(got, `Apply failed with 1 conflict: conflict with \"creator\" using autoscaling/v1: .spec.replicas`) {
		t.Errorf("conflict: %s", got)
	}
	apply(200, "a", "?fieldManager=m1&force=true", scale("a", 2))
	check("a", "m1 Apply scale replicas", "creator Update  timed")
	apply(200, "a", "?fieldManager=m1", scale("a", 3))
	apply(200, "a", "?fieldManager=m2", scale("a", 3))
	check("a", "m1 Apply scale replicas", "m2 Apply scale replicas", "creator Update  timed")

	// An apply leaving replicas out still moves the update manager's.
	create("d", "?fieldManager=creator")
	apply(200, "d", "?fieldManager=m1", `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"d"}}`)
	check("d", "creator Update  replicas", "creator Update  timed")

	// An apply manager of the Deployment is another manager on the Scale.
	c.mustPatch(201, deployments+"/g?fieldManager=owner", "application/apply-patch+yaml", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"g"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"g"}},"template":{"metadata":{"labels":{"app":"g"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`)
	if got := apply(409, "g", "?fieldManager=owner", scale("g", 3)); !strings.Contains(got, `conflict with \"owner\": .spec.replicas`) {
		t.Errorf("conflict with the Deployment's applier: %s", got)
	}

	// Nobody owns the replicas: the Scale's first apply records them.
	for _, name := range []string{"f", "f2"} {
		create(name, "")
		c.mustPatch(200, deployments+"/"+name, "application/merge-patch+json", `{"metadata":{"managedFields":[{}]}}`)
	}
	if got := apply(409, "f", "?fieldManager=m1", scale("f", 2)); !strings.Contains(got, `conflict with \"before-first-apply\" with subresource \"scale\" using autoscaling/v1: .spec.replicas`) {
		t.Errorf("conflict with before-first-apply: %s", got)
	}
	apply(200, "f2", "?fieldManager=m1", scale("f2", 1))
	check("f2", "m1 Apply scale replicas", "before-first-apply Update scale replicas")
}
