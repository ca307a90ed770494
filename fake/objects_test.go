package fake

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/watch"
)

// serverSet are the metadata fields the server writes, so they differ
// between a recorded object and the same object stored by the fake.
var serverSet = []string{"uid", "resourceVersion", "creationTimestamp", "managedFields", "generation"}

func stripServerFields(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if meta, ok := m["metadata"].(map[string]any); ok {
		for _, f := range serverSet {
			delete(meta, f)
		}
	}
	return m
}

// TestObjectsRoundTripFixtures stores recorded objects in the fake and
// reads them back in JSON, YAML and protobuf: apart from server-set
// metadata they must come back as kube-apiserver served them.
func TestObjectsRoundTripFixtures(t *testing.T) {
	tests := []struct {
		fixture string
		obj     func() any
		path    string
	}{
		{"objects/configmaps-cm-1", func() any { return new(corev1.ConfigMap) }, "/api/v1/namespaces/fixtures/configmaps/cm-1"},
		{"objects/pods-web-1", func() any { return new(corev1.Pod) }, "/api/v1/namespaces/fixtures/pods/web-1"},
		{"objects/secrets-s1", func() any { return new(corev1.Secret) }, "/api/v1/namespaces/fixtures/secrets/s1"},
		{"objects/services-web", func() any { return new(corev1.Service) }, "/api/v1/namespaces/fixtures/services/web"},
		{"objects/deployment-web", func() any { return new(appsv1.Deployment) }, "/apis/apps/v1/namespaces/fixtures/deployments/web"},
	}
	s, c := newTestServer(t, Options{Namespaces: []string{"fixtures"}})
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			rec := loadFixture(t, tt.fixture+".json")
			obj := tt.obj()
			if err := json.Unmarshal(rec.Body, obj); err != nil {
				t.Fatal(err)
			}
			if err := s.Add(obj); err != nil {
				t.Fatal(err)
			}
			resp, body := c.do("GET", tt.path, codec.MediaTypeJSON, "")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if diff := cmp.Diff(stripServerFields(t, rec.Body), stripServerFields(t, body)); diff != "" {
				t.Errorf("JSON (-kube-apiserver +fake):\n%s", diff)
			}
			_, pb := c.do("GET", tt.path, codec.MediaTypeProtobuf, "")
			fromPB := tt.obj()
			if err := codec.DecodeProtobuf(pb, fromPB.(codec.ProtobufUnmarshaler)); err != nil {
				t.Fatal(err)
			}
			pbJSON, _ := json.Marshal(fromPB)
			if diff := cmp.Diff(stripServerFields(t, body), stripServerFields(t, pbJSON)); diff != "" {
				t.Errorf("protobuf disagrees with JSON (-json +protobuf):\n%s", diff)
			}
			_, y := c.do("GET", tt.path, codec.MediaTypeYAML, "")
			yj, err := codec.YAMLToJSON(y)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(stripServerFields(t, body), stripServerFields(t, yj)); diff != "" {
				t.Errorf("YAML disagrees with JSON:\n%s", diff)
			}
		})
	}
}

// TestWatchListEndBookmarkMatchesFixture compares the end bookmark's bytes
// with kube-apiserver's.
func TestWatchListEndBookmarkMatchesFixture(t *testing.T) {
	rec := loadFixture(t, "watch/configmaps-watchlist.json")
	var want string
	sc := bufio.NewScanner(bytes.NewReader(rec.Body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), watch.InitialEventsEnd) {
			want = sc.Text()
			break
		}
	}
	s, c := newTestServer(t, Options{})
	c.createCM("a")
	rv := s.CurrentResourceVersion()
	want = strings.Replace(want, `"resourceVersion":"240"`, `"resourceVersion":"`+rv+`"`, 1)
	resp, body := c.do("GET", "/api/v1/namespaces/default/configmaps?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1", "", "")
	if resp.Header.Get("Content-Type") != rec.ContentType() {
		t.Errorf("Content-Type %q, want %q", resp.Header.Get("Content-Type"), rec.ContentType())
	}
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if len(lines) < 2 || lines[1] != want {
		t.Errorf("end bookmark:\n got %s\nwant %s", lines[min(1, len(lines)-1)], want)
	}
}
