package fake

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// meta reads the metadata of an object answer.
type objMeta struct {
	Metadata struct {
		UID               string
		Finalizers        []string
		DeletionTimestamp string
		OwnerReferences   []struct{ UID string }
	}
	Status json.RawMessage // an object's status, or a Status's
}

func (m objMeta) phase() string {
	var st struct{ Phase string }
	_ = json.Unmarshal(m.Status, &st)
	return st.Phase
}

func decodeMeta(t *testing.T, b []byte) objMeta {
	t.Helper()
	var m objMeta
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return m
}

const testCMs = "/api/v1/namespaces/default/configmaps"

// ownerAndDependent creates ConfigMap "owner" and "dep" owned by it
// (blockOwnerDeletion as given) and returns the owner's uid.
func ownerAndDependent(t *testing.T, c *tclient, block bool) string {
	t.Helper()
	owner := decodeMeta(t, c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"name":"owner"}}`))
	b := "false"
	if block {
		b = "true"
	}
	c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"name":"dep","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner","uid":"`+owner.Metadata.UID+`","blockOwnerDeletion":`+b+`}]}}`)
	return owner.Metadata.UID
}

// The garbage collector deletes dependents whose owners are gone, waits
// for blocking dependents under a foreground deletion, and orphans
// dependents when asked to, all before the write that triggers it is
// answered.
func TestGarbageCollection(t *testing.T) {
	tests := []struct {
		name, query string
		// answered is what the owner's DELETE answers with: its
		// finalizers (nil for a Success Status).
		answered     []string
		dependentOut bool // dependent gone afterwards
		orphaned     bool // dependent left without owner references
	}{
		{"background", "", nil, true, false},
		{"explicit background", "?propagationPolicy=Background", nil, true, false},
		{"foreground", "?propagationPolicy=Foreground", []string{"foregroundDeletion"}, true, false},
		{"orphan", "?propagationPolicy=Orphan", []string{"orphan"}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, c := newTestServer(t, Options{})
			ownerAndDependent(t, c, true)
			got := c.mustDo(http.StatusOK, "DELETE", testCMs+"/owner"+tt.query, "")
			if m := decodeMeta(t, got); !slices.Equal(m.Metadata.Finalizers, tt.answered) {
				t.Errorf("owner answered with finalizers %v, want %v: %s", m.Metadata.Finalizers, tt.answered, got)
			}
			c.mustDo(http.StatusNotFound, "GET", testCMs+"/owner", "")
			resp, body := c.do("GET", testCMs+"/dep", "", "")
			if gone := resp.StatusCode == http.StatusNotFound; gone != tt.dependentOut {
				t.Fatalf("dependent gone = %t, want %t: %s", gone, tt.dependentOut, body)
			}
			if tt.orphaned {
				if m := decodeMeta(t, body); len(m.Metadata.OwnerReferences) != 0 {
					t.Errorf("orphaned dependent keeps %v", m.Metadata.OwnerReferences)
				}
			}
		})
	}
}

// With the controllers run by hand, nothing is collected until
// CollectGarbage: the owner waits under its finalizer, the dependent
// stays.
func TestCollectGarbageManual(t *testing.T) {
	s, c := newTestServer(t, Options{Controllers: ControllersManual})
	ownerAndDependent(t, c, true)
	c.mustDo(http.StatusOK, "DELETE", testCMs+"/owner?propagationPolicy=Foreground", "")
	if m := decodeMeta(t, c.mustDo(http.StatusOK, "GET", testCMs+"/owner", "")); m.Metadata.DeletionTimestamp == "" {
		t.Fatal("owner not marked for deletion")
	}
	c.mustDo(http.StatusOK, "GET", testCMs+"/dep", "")
	s.CollectGarbage()
	c.mustDo(http.StatusNotFound, "GET", testCMs+"/owner", "")
	c.mustDo(http.StatusNotFound, "GET", testCMs+"/dep", "")
}

// A dependent with two owners loses the reference to the one deleted
// and stays.
func TestGarbageCollectionKeepsObjectsWithAnOwnerLeft(t *testing.T) {
	_, c := newTestServer(t, Options{})
	a := decodeMeta(t, c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"name":"a"}}`)).Metadata.UID
	b := decodeMeta(t, c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"name":"b"}}`)).Metadata.UID
	c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"name":"dep","ownerReferences":[`+
		`{"apiVersion":"v1","kind":"ConfigMap","name":"a","uid":"`+a+`"},{"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"`+b+`"}]}}`)
	c.mustDo(http.StatusOK, "DELETE", testCMs+"/a", "")
	m := decodeMeta(t, c.mustDo(http.StatusOK, "GET", testCMs+"/dep", ""))
	if len(m.Metadata.OwnerReferences) != 1 || m.Metadata.OwnerReferences[0].UID != b {
		t.Errorf("owner references %v, want only %s", m.Metadata.OwnerReferences, b)
	}
}

func TestInvalidPropagationPolicy(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("x")
	got := string(c.mustDo(http.StatusUnprocessableEntity, "DELETE", testCMs+"/x?propagationPolicy=Sometimes", ""))
	want := `DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Sometimes\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"`
	if !strings.Contains(got, want) {
		t.Errorf("got %s\nwant it to contain %s", got, want)
	}
}

// Deleting a namespace marks it Terminating, refuses new objects in it,
// deletes its objects and then removes it; its ServiceAccount came with
// it.
func TestNamespaceLifecycle(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces", `{"metadata":{"name":"team"}}`)
	c.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/team/serviceaccounts/default", "")
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/team/configmaps", `{"metadata":{"name":"held","finalizers":["example.com/hold"]}}`)
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/team/configmaps", `{"metadata":{"name":"free"}}`)

	ns := decodeMeta(t, c.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/team", ""))
	if ns.phase() != "Terminating" || ns.Metadata.DeletionTimestamp == "" {
		t.Fatalf("namespace answered %+v", ns)
	}
	c.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/team/configmaps/free", "")
	got := string(c.mustDo(http.StatusForbidden, "POST", "/api/v1/namespaces/team/configmaps", `{"metadata":{"name":"late"}}`))
	if !strings.Contains(got, "unable to create new content in namespace team because it is being terminated") {
		t.Errorf("create in a terminating namespace: %s", got)
	}
	got = string(c.mustDo(http.StatusConflict, "POST", "/api/v1/namespaces", `{"metadata":{"name":"team"}}`))
	if !strings.Contains(got, `object is being deleted: namespaces \"team\" already exists`) {
		t.Errorf("re-create a terminating namespace: %s", got)
	}
	// The finalizer holds the ConfigMap, which holds the namespace.
	c.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/team", "")
	c.mustDo(http.StatusOK, "PUT", "/api/v1/namespaces/team/configmaps/held", `{"metadata":{"name":"held"}}`)
	c.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/team", "")
}

func TestImmortalNamespaces(t *testing.T) {
	_, c := newTestServer(t, Options{})
	for _, ns := range []string{"default", "kube-system", "kube-public"} {
		got := string(c.mustDo(http.StatusForbidden, "DELETE", "/api/v1/namespaces/"+ns, ""))
		if !strings.Contains(got, `namespaces \"`+ns+`\" is forbidden: this namespace may not be deleted`) {
			t.Errorf("delete %s: %s", ns, got)
		}
	}
}

// Without controllers a namespace stays Terminating until /finalize
// empties its finalizers.
func TestNamespaceFinalize(t *testing.T) {
	_, c := newTestServer(t, Options{Controllers: ControllersManual})
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces", `{"metadata":{"name":"fin"}}`)
	c.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/fin", "")
	c.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/fin", "")
	c.mustDo(http.StatusOK, "PUT", "/api/v1/namespaces/fin/finalize", `{"metadata":{"name":"fin"},"spec":{"finalizers":[]}}`)
	c.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/fin", "")
}

// A Pod bound to a node is deleted gracefully: it stays Terminating for
// its grace period (the kubelet's time), then goes; gracePeriodSeconds=0
// deletes it at once.
func TestPodGracefulDeletion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := newMemServer(t, Options{})
		pods := "/api/v1/namespaces/default/pods"
		for _, name := range []string{"a", "b"} {
			c.mustDo(http.StatusCreated, "POST", pods, `{"metadata":{"name":"`+name+`"},"spec":{"nodeName":"n1","terminationGracePeriodSeconds":10,"containers":[{"name":"c","image":"i"}]}}`)
		}
		m := decodeMeta(t, c.mustDo(http.StatusOK, "DELETE", pods+"/a", ""))
		if m.Metadata.DeletionTimestamp == "" {
			t.Fatal("bound pod not marked for deletion")
		}
		time.Sleep(5 * time.Second)
		c.mustDo(http.StatusOK, "GET", pods+"/a", "")
		time.Sleep(6 * time.Second)
		synctest.Wait()
		c.mustDo(http.StatusNotFound, "GET", pods+"/a", "")

		c.mustDo(http.StatusOK, "DELETE", pods+"/b?gracePeriodSeconds=0", "")
		c.mustDo(http.StatusNotFound, "GET", pods+"/b", "")
	})
}

// A Pod runs as its namespace's "default" ServiceAccount, which must
// exist.
func TestPodServiceAccountAdmission(t *testing.T) {
	_, c := newTestServer(t, Options{Controllers: ControllersManual, Namespaces: []string{"default"}})
	pods := "/api/v1/namespaces/default/pods"
	got := string(c.mustDo(http.StatusForbidden, "POST", pods, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`))
	if !strings.Contains(got, `error looking up service account default/default: serviceaccount \"default\" not found`) {
		t.Errorf("pod without its service account: %s", got)
	}
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/serviceaccounts", `{"metadata":{"name":"default"}}`)
	var pod struct {
		Spec struct {
			ServiceAccountName string
			Volumes            []struct{ Name string }
			Tolerations        []struct{ Key string }
		}
		Status struct{ Phase, QOSClass string }
	}
	if err := json.Unmarshal(c.mustDo(http.StatusCreated, "POST", pods, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`), &pod); err != nil {
		t.Fatal(err)
	}
	if pod.Spec.ServiceAccountName != "default" || len(pod.Spec.Volumes) != 1 || !strings.HasPrefix(pod.Spec.Volumes[0].Name, "kube-api-access-") ||
		len(pod.Spec.Tolerations) != 2 || pod.Status.Phase != "Pending" || pod.Status.QOSClass != "BestEffort" {
		t.Errorf("pod as created: %+v", pod)
	}
}
