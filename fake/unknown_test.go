package fake

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/object"
)

func TestUnknownFieldPaths(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		body string
		want []string
	}{
		{"none", reflect.TypeFor[*corev1.ConfigMap](), `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"x":"y"}},"data":{"k":"v"}}`, nil},
		{"top level", reflect.TypeFor[*corev1.ConfigMap](), `{"metadata":{"name":"a"},"bogus":1}`, []string{"bogus"}},
		{"case-sensitive", reflect.TypeFor[*corev1.ConfigMap](), `{"Metadata":{}}`, []string{"Metadata"}},
		{"nested, in order", reflect.TypeFor[*appsv1.Deployment](),
			`{"spec":{"bogus":1,"template":{"metadata":{"extra":{}},"spec":{"containers":[{"name":"a"},{"name":"b","imagePull":"x","ports":[{"containerPort":1,"p":2}]}]}}},"metadata":{"nam":"x"},"zzz":[1]}`,
			[]string{"spec.bogus", "spec.template.metadata.extra", "spec.template.spec.containers[1].imagePull", "spec.template.spec.containers[1].ports[0].p", "metadata.nam", "zzz"}},
		{"map values and self-decoding types are not checked", reflect.TypeFor[*corev1.Pod](),
			`{"metadata":{"creationTimestamp":"2024-01-01T00:00:00Z","annotations":{"a":"b"}},"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1"}}}]}}`, nil},
		{"broken JSON keeps what was found", reflect.TypeFor[*corev1.ConfigMap](), `{"x":1,`, []string{"x"}},
		{"wrong shape", reflect.TypeFor[*corev1.ConfigMap](), `{"data":[{"a":1}],"metadata":"x"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, object.UnknownFieldPaths([]byte(tt.body), tt.typ)); diff != "" {
				t.Errorf("unknown fields (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFieldValidationFullPaths(t *testing.T) {
	const body = `{"metadata":{"name":"web"},"spec":{"bogus":1,"template":{"spec":{"containers":[{"name":"a","imag":"x"}]}}},"extra":true}`
	tests := []struct {
		name, query  string
		code         int
		wantMessage  string
		wantWarnings []string
	}{
		{"Strict", "?fieldValidation=Strict", http.StatusBadRequest,
			`Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.bogus", unknown field "spec.template.spec.containers[0].imag", unknown field "extra"`, nil},
		{"Warn", "?fieldValidation=Warn", http.StatusCreated, "",
			[]string{`299 - "unknown field \"spec.bogus\""`, `299 - "unknown field \"spec.template.spec.containers[0].imag\""`, `299 - "unknown field \"extra\""`}},
		{"default is Warn", "", http.StatusCreated, "",
			[]string{`299 - "unknown field \"spec.bogus\""`, `299 - "unknown field \"spec.template.spec.containers[0].imag\""`, `299 - "unknown field \"extra\""`}},
		{"Ignore", "?fieldValidation=Ignore", http.StatusCreated, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, c := newTestServer(t, Options{})
			resp, b := c.do("POST", "/apis/apps/v1/namespaces/default/deployments"+tt.query, "", body)
			if resp.StatusCode != tt.code {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.code, b)
			}
			if diff := cmp.Diff(tt.wantWarnings, resp.Header.Values("Warning")); diff != "" {
				t.Errorf("Warning headers (-want +got):\n%s", diff)
			}
			if tt.wantMessage == "" {
				var d appsv1.Deployment
				if err := json.Unmarshal(b, &d); err != nil || d.Name != "web" {
					t.Errorf("created %q, %v", d.Name, err)
				}
				return
			}
			st := decodeStatus(t, codec.MediaTypeJSON, b)
			want := &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: "Failure", Message: tt.wantMessage, Reason: "BadRequest", Code: http.StatusBadRequest}
			if diff := cmp.Diff(want, st); diff != "" {
				t.Errorf("Status (-want +got):\n%s", diff)
			}
		})
	}
}
