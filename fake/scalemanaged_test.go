package fake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScaleManagedFields checks the managedFields and resource version of
// scale writes against what kube-apiserver v1.36.3 answered to the same
// requests: an update manager owning replicas loses them to an entry of
// the same manager without a time, even when the write changes nothing;
// going to 0 replicas leaves them unowned; an object whose replicas
// nobody owns gets no entry.
func TestScaleManagedFields(t *testing.T) {
	const path = "/apis/apps/v1/namespaces/default/deployments"
	deployment := func(name string, replicas int) string {
		return fmt.Sprintf(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":%q},"spec":{"replicas":%d,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`, name, replicas)
	}
	type step struct {
		manager  string
		replicas int
		written  bool     // a new resourceVersion
		entries  []string // manager operation subresource, "timed" when it has a time, "replicas" when it owns only them, "+replicas" among others
	}
	tests := []struct {
		name     string
		create   func(c *tclient, name string)
		replicas int
		steps    []step
	}{
		{name: "update manager", replicas: 2, steps: []step{
			{"fidelity", 2, true, []string{"fidelity Update - replicas", "fidelity Update - timed"}},
			{"other", 2, true, []string{"fidelity Update - timed"}},
			{"other", 2, false, []string{"fidelity Update - timed"}},
		}},
		{name: "other manager", replicas: 2, steps: []step{
			{"bob", 3, true, []string{"bob Update scale replicas", "fidelity Update - timed"}},
			{"bob", 3, false, []string{"bob Update scale replicas", "fidelity Update - timed"}},
			{"fidelity", 3, false, []string{"bob Update scale replicas", "fidelity Update - timed"}},
			{"bob", 0, true, []string{"fidelity Update - timed"}},
			{"bob", 0, false, []string{"fidelity Update - timed"}},
			{"fidelity", 5, true, []string{"fidelity Update - timed"}},
			{"fidelity", 5, false, []string{"fidelity Update - timed"}},
		}},
		{name: "from zero", replicas: 0, steps: []step{
			{"fidelity", 3, true, []string{"fidelity Update scale replicas", "fidelity Update - timed"}},
			{"fidelity", 4, true, []string{"fidelity Update scale replicas", "fidelity Update - timed"}},
			{"bob", 4, false, []string{"fidelity Update scale replicas", "fidelity Update - timed"}},
		}},
		{name: "applied", create: func(c *tclient, name string) {
			c.mustPatch(http.StatusCreated, path+"/"+name+"?fieldManager=alice", "application/apply-patch+yaml", deployment(name, 2))
		}, steps: []step{
			{"bob", 2, false, []string{"alice Apply - timed +replicas"}},
			{"bob", 4, true, []string{"alice Apply - timed", "bob Update scale replicas"}},
			{"alice", 4, false, []string{"alice Apply - timed", "bob Update scale replicas"}},
		}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, c := newTestServer(t, Options{})
			name := fmt.Sprint("d", i)
			if tt.create != nil {
				tt.create(c, name)
			} else {
				c.mustDo(http.StatusCreated, "POST", path+"?fieldManager=fidelity", deployment(name, tt.replicas))
			}
			rv, _ := scaleManagedFields(t, c, path+"/"+name)
			for _, st := range tt.steps {
				c.mustDo(http.StatusOK, "PUT", fmt.Sprintf("%s/%s/scale?fieldManager=%s", path, name, st.manager), fmt.Sprintf(`{"metadata":{"name":%q},"spec":{"replicas":%d}}`, name, st.replicas))
				next, entries := scaleManagedFields(t, c, path+"/"+name)
				if (next != rv) != st.written {
					t.Errorf("%s to %d: resourceVersion %s -> %s, want written %v", st.manager, st.replicas, rv, next, st.written)
				}
				if diff := cmp.Diff(st.entries, entries); diff != "" {
					t.Errorf("%s to %d: managedFields (-want +got):\n%s", st.manager, st.replicas, diff)
				}
				rv = next
			}
		})
	}
}

// scaleManagedFields returns the object's resourceVersion and its
// managedFields entries in short form.
func scaleManagedFields(t *testing.T, c *tclient, path string) (string, []string) {
	t.Helper()
	var obj struct {
		Metadata struct {
			ResourceVersion string
			ManagedFields   []struct {
				Manager, Operation, APIVersion, Subresource string
				Time                                        *string
				FieldsV1                                    json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", path, ""), &obj); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range obj.Metadata.ManagedFields {
		sub := e.Subresource
		if sub == "" {
			sub = "-"
		}
		s := strings.Join([]string{e.Manager, e.Operation, sub}, " ")
		if e.APIVersion != "apps/v1" {
			s += " " + e.APIVersion
		}
		if e.Time != nil {
			s += " timed"
		}
		switch {
		case string(e.FieldsV1) == `{"f:spec":{"f:replicas":{}}}`:
			s += " replicas"
		case strings.Contains(string(e.FieldsV1), `"f:replicas"`):
			s += " +replicas"
		}
		out = append(out, s)
	}
	return obj.Metadata.ResourceVersion, out
}
