package managedfields

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
)

func obj(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// summary is managedFields as "manager/operation/subresource: FIELDSV1",
// in order, with whether each has a time.
func summary(t *testing.T, m Managed) []string {
	t.Helper()
	var out []string
	for _, e := range m.Encode() {
		s := e.Manager + "/" + string(e.Operation)
		if e.Subresource != "" {
			s += "/" + e.Subresource
		}
		if e.Time == nil {
			s += " (no time)"
		}
		out = append(out, s+": "+string(e.FieldsV1.Raw))
	}
	return out
}

func configMapEndpoint(at int) Endpoint {
	var b fieldpath.Builtins
	return Endpoint{Type: b.Kind("v1", "ConfigMap"), APIVersion: "v1", Now: metav1.NewTime(time.Unix(int64(1000+at), 0))}
}

const emptyConfigMap = `{"metadata":{"creationTimestamp":null}}`

func TestUpdate(t *testing.T) {
	ep := configMapEndpoint(0)
	// A create: kube-apiserver v1.36 records these fields for a ConfigMap
	// created with one data key and one label.
	created := obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"x":"y"}},"data":{"k":"v"}}`)
	m := ep.Update(obj(t, emptyConfigMap), created, nil, "curl", false)
	want := []string{`curl/Update: {"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:x":{}}}}`}
	if diff := cmp.Diff(want, summary(t, m)); diff != "" {
		t.Fatalf("create (-want +got)\n%s", diff)
	}
	// Another manager changes a field: it takes it over.
	ep = configMapEndpoint(1)
	next := obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"x":"y"}},"data":{"k":"w","l":"1"}}`)
	m = ep.Update(created, next, m, "editor", true)
	want = []string{
		`curl/Update: {"f:data":{},"f:metadata":{"f:labels":{".":{},"f:x":{}}}}`,
		`editor/Update: {"f:data":{"f:k":{},"f:l":{}}}`,
	}
	if diff := cmp.Diff(want, summary(t, m)); diff != "" {
		t.Fatalf("update (-want +got)\n%s", diff)
	}
	// An object without managedFields stays without.
	if got := ep.Update(created, next, nil, "editor", true); len(got) != 0 {
		t.Errorf("update of an untracked object recorded %v", summary(t, got))
	}
}

func TestApply(t *testing.T) {
	empty := obj(t, emptyConfigMap)
	cfg := func(data string) map[string]any {
		return obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ap"},"data":{`+data+`}}`)
	}
	ep := configMapEndpoint(0)
	live, m, err := ep.Apply(empty, empty, cfg(`"a":"1","b":"2"`), nil, "alice", false)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{`alice/Apply: {"f:data":{"f:a":{},"f:b":{}}}`}, summary(t, m)); diff != "" {
		t.Fatalf("first apply (-want +got)\n%s", diff)
	}

	// Applying the same value shares the field; the object does not
	// change, so the new entry has no time (and sorts first), as on
	// kube-apiserver.
	same, m2, err := ep.Apply(empty, live, cfg(`"a":"1"`), m, "bob", false)
	if err != nil || same != nil {
		t.Fatalf("shared apply: object %v, err %v", same, err)
	}
	want := []string{`bob/Apply (no time): {"f:data":{"f:a":{}}}`, `alice/Apply: {"f:data":{"f:a":{},"f:b":{}}}`}
	if diff := cmp.Diff(want, summary(t, m2)); diff != "" {
		t.Fatalf("shared apply (-want +got)\n%s", diff)
	}

	// Changing another manager's field conflicts, unless forced.
	_, _, err = ep.Apply(empty, live, cfg(`"b":"3"`), m2, "bob", false)
	var conflicts ConflictError
	if !errors.As(err, &conflicts) {
		t.Fatalf("conflicting apply: %v", err)
	}
	if got, want := conflicts.Message(), `Apply failed with 1 conflict: conflict with "alice": .data.b`; got != want {
		t.Errorf("conflict message %q, want %q", got, want)
	}
	forced, m3, err := ep.Apply(empty, live, cfg(`"a":"1","b":"3"`), m2, "bob", true)
	if err != nil {
		t.Fatal(err)
	}
	want = []string{`alice/Apply: {"f:data":{"f:a":{}}}`, `bob/Apply: {"f:data":{"f:a":{},"f:b":{}}}`}
	if diff := cmp.Diff(want, summary(t, m3)); diff != "" {
		t.Fatalf("forced apply (-want +got)\n%s", diff)
	}

	// A field a manager stops applying goes when nobody else owns it,
	// and stays when somebody does.
	pruned, m4, err := ep.Apply(empty, forced, cfg(`"a":"1"`), m3, "bob", false)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"a": "1"}, pruned["data"]); diff != "" {
		t.Errorf("data after bob drops b (-want +got)\n%s", diff)
	}
	kept, _, err := ep.Apply(empty, pruned, cfg(``), m4, "alice", false)
	if err != nil {
		t.Fatal(err)
	}
	if kept != nil {
		t.Errorf("alice dropping a field bob owns changed the object: %v", kept["data"])
	}
}

func TestDecodeRefusesBadEntries(t *testing.T) {
	_, err := Decode([]metav1.ManagedFieldsEntry{{Manager: "x", Operation: "Patch", APIVersion: "v1", FieldsType: "FieldsV1"}})
	if !errors.Is(err, errBadEntry) {
		t.Errorf("err %v, want an invalid entry error", err)
	}
}

func TestCapUpdateManagers(t *testing.T) {
	m := Managed{}
	for i := range MaxUpdateManagers + 2 {
		ep := configMapEndpoint(i)
		name := string(rune('a' + i))
		m = ep.Update(obj(t, `{}`), obj(t, `{"data":{"`+name+`":"1"}}`), m, name, false)
	}
	got := summary(t, m)
	if len(got) != MaxUpdateManagers {
		t.Fatalf("%d entries, want %d: %v", len(got), MaxUpdateManagers, got)
	}
	if want := `ancient-changes/Update: {"f:data":{"f:a":{},"f:b":{},"f:c":{}}}`; got[0] != want {
		t.Errorf("oldest entry %q, want %q", got[0], want)
	}
}
