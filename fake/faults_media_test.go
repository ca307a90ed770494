package fake

import (
	"bytes"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

func TestFaultNotAcceptableNext(t *testing.T) {
	want := loadFixture(t, "errors/widget-protobuf-only-406")
	tests := []struct {
		name, method, path, accept string
		wantType                   string
	}{
		{"protobuf get", "GET", "/api/v1/namespaces/default/configmaps/a", codec.MediaTypeProtobuf, codec.MediaTypeProtobuf},
		{"protobuf or JSON list", "GET", "/api/v1/namespaces/default/configmaps", codec.AcceptProtobufOrJSON, codec.MediaTypeProtobuf},
		{"JSON watch", "GET", "/api/v1/namespaces/default/configmaps?watch=true", codec.MediaTypeJSON, codec.MediaTypeJSON},
		{"discovery", "GET", "/apis", "", codec.MediaTypeJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, c := newTestServer(t, Options{})
			c.createCM("a")
			s.Faults().NotAcceptableNext(2)
			for range 2 {
				resp, body := c.do(tt.method, tt.path, tt.accept, "")
				if resp.StatusCode != http.StatusNotAcceptable || resp.Header.Get("Content-Type") != tt.wantType {
					t.Fatalf("status %d %s, want 406 %s", resp.StatusCode, resp.Header.Get("Content-Type"), tt.wantType)
				}
				if err := codec.ErrorFromResponse(resp.StatusCode, tt.wantType, body); !errors.Is(err, codec.ErrNotAcceptable) {
					t.Errorf("error %v, want ErrNotAcceptable", err)
				}
				if diff := cmp.Diff(decodeStatus(t, want.ContentType(), want.Body), decodeStatus(t, tt.wantType, body)); diff != "" {
					t.Errorf("Status (-kube-apiserver +fake):\n%s", diff)
				}
				if tt.wantType == codec.MediaTypeProtobuf && !bytes.Equal(want.Body, body) {
					t.Errorf("protobuf body differs:\nkube-apiserver %q\nfake           %q", want.Body, body)
				}
			}
			if tt.path != "/api/v1/namespaces/default/configmaps?watch=true" {
				if resp, body := c.do(tt.method, tt.path, tt.accept, ""); resp.StatusCode != http.StatusOK {
					t.Errorf("third request: status %d: %s", resp.StatusCode, body)
				}
			}
		})
	}
	t.Run("Clear", func(t *testing.T) {
		s, c := newTestServer(t, Options{})
		s.Faults().NotAcceptableNext(3)
		s.Faults().Clear()
		c.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/configmaps", "")
	})
}

func TestFaultRefuseProtobufBodies(t *testing.T) {
	s, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", "/apis/apps/v1/namespaces/default/deployments", `{"metadata":{"name":"web"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`)
	c.createCM("a")
	pb := func(apiVersion, kind string, v codec.ProtobufMarshaler) string {
		b, err := codec.EncodeProtobuf(apiVersion, kind, v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cm := pb("v1", "ConfigMap", &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "b"}})
	cmUpdate := pb("v1", "ConfigMap", &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Data: map[string]string{"k": "v"}})
	tests := []struct {
		name, method, path, contentType, body string
		refuse                                bool
		code                                  int
	}{
		{"protobuf create", "POST", "/api/v1/namespaces/default/configmaps", codec.MediaTypeProtobuf, cm, true, http.StatusUnsupportedMediaType},
		{"protobuf update", "PUT", "/api/v1/namespaces/default/configmaps/a", codec.MediaTypeProtobuf, cmUpdate, true, http.StatusUnsupportedMediaType},
		{"protobuf scale update", "PUT", "/apis/apps/v1/namespaces/default/deployments/web/scale", codec.MediaTypeProtobuf, "k8s\x00", true, http.StatusUnsupportedMediaType},
		{"JSON create", "POST", "/api/v1/namespaces/default/configmaps", codec.MediaTypeJSON, `{"metadata":{"name":"c"}}`, true, http.StatusCreated},
		{"YAML update", "PUT", "/api/v1/namespaces/default/configmaps/a", codec.MediaTypeYAML, "metadata:\n  name: a\ndata:\n  y: z\n", true, http.StatusOK},
		{"protobuf create allowed again", "POST", "/api/v1/namespaces/default/configmaps", codec.MediaTypeProtobuf, cm, false, http.StatusCreated},
		{"protobuf update allowed again", "PUT", "/api/v1/namespaces/default/configmaps/a", codec.MediaTypeProtobuf, cmUpdate, false, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.Faults().RefuseProtobufBodies(tt.refuse)
			req := c.request(tt.method, tt.path, "", tt.body)
			req.Header.Set("Content-Type", tt.contentType)
			resp, err := c.hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var buf bytes.Buffer
			_, _ = buf.ReadFrom(resp.Body)
			if resp.StatusCode != tt.code {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.code, buf.Bytes())
			}
			if tt.code != http.StatusUnsupportedMediaType {
				return
			}
			st := decodeStatus(t, resp.Header.Get("Content-Type"), buf.Bytes())
			want := &metav1.Status{
				TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
				Status:   "Failure",
				Message:  `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (got "application/vnd.kubernetes.protobuf")`,
				Reason:   "UnsupportedMediaType",
				Code:     http.StatusUnsupportedMediaType,
			}
			if diff := cmp.Diff(want, st); diff != "" {
				t.Errorf("Status (-want +got):\n%s", diff)
			}
		})
	}
}
