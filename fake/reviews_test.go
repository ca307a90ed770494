package fake

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	authenticationv1 "github.com/kubewire/kubewire/api/authentication/v1"
	"github.com/kubewire/kubewire/codec"
)

// TestReviews creates each review kind and checks the answer an admin
// gets from kube-apiserver: allowed, the admin's rules, the token's user.
func TestReviews(t *testing.T) {
	s, c := newTestServer(t, Options{})
	authz, authn := "/apis/authorization.k8s.io/v1/", "/apis/authentication.k8s.io/v1/"
	steps := []struct {
		name, path, body string
		code             int
		want             string // a JSON object the answer must contain
	}{
		{"can create pods", authz + "selfsubjectaccessreviews", `{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"namespace":"default","verb":"create","resource":"pods"}}}`, 201,
			`{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"namespace":"default","verb":"create","resource":"pods"}},"status":{"allowed":true}}`},
		{"can get /healthz", authz + "selfsubjectaccessreviews", `{"spec":{"nonResourceAttributes":{"path":"/healthz","verb":"get"}}}`, 201, `{"status":{"allowed":true}}`},
		{"no attributes", authz + "selfsubjectaccessreviews", `{"spec":{}}`, 422,
			`{"message":"SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified","reason":"Invalid","code":422}`},
		{"both attributes", authz + "selfsubjectaccessreviews", `{"spec":{"resourceAttributes":{"verb":"get"},"nonResourceAttributes":{"path":"/x","verb":"get"}}}`, 422,
			`{"details":{"causes":[{"field":"spec.nonResourceAttributes","message":"Invalid value: {\"path\":\"/x\",\"verb\":\"get\"}: cannot be specified in combination with resourceAttributes"}]}}`},
		{"another user", authz + "subjectaccessreviews", `{"spec":{"user":"jane","resourceAttributes":{"verb":"delete","resource":"nodes"}}}`, 201, `{"kind":"SubjectAccessReview","status":{"allowed":true}}`},
		{"nobody", authz + "subjectaccessreviews", `{"spec":{"resourceAttributes":{"verb":"get"}}}`, 422,
			`{"message":"SubjectAccessReview.authorization.k8s.io \"\" is invalid: spec.user: Invalid value: \"\": at least one of user or group must be specified"}`},
		{"in a namespace", authz + "namespaces/ns1/localsubjectaccessreviews", `{"spec":{"user":"jane","resourceAttributes":{"namespace":"ns1","verb":"get","resource":"pods"}}}`, 201,
			`{"kind":"LocalSubjectAccessReview","metadata":{"namespace":"ns1"},"status":{"allowed":true}}`},
		{"in another namespace", authz + "namespaces/ns1/localsubjectaccessreviews", `{"spec":{"user":"jane","resourceAttributes":{"namespace":"ns2","verb":"get"}}}`, 422,
			`{"message":"LocalSubjectAccessReview.authorization.k8s.io \"\" is invalid: spec.resourceAttributes.namespace: Invalid value: \"ns2\": must match metadata.namespace"}`},
		{"a path in a namespace", authz + "namespaces/ns1/localsubjectaccessreviews", `{"spec":{"groups":["g"],"nonResourceAttributes":{"path":"/x","verb":"get"}}}`, 422,
			`{"details":{"causes":[{"field":"spec.nonResourceAttributes","message":"Invalid value: {\"path\":\"/x\",\"verb\":\"get\"}: disallowed on this kind of request"}]}}`},
		{"a namespace unlike the path's", authz + "namespaces/ns1/localsubjectaccessreviews", `{"metadata":{"namespace":"ns2"},"spec":{"user":"u","resourceAttributes":{"namespace":"ns2"}}}`, 400,
			`{"message":"the namespace of the provided object does not match the namespace sent on the request"}`},
		{"rules", authz + "selfsubjectrulesreviews", `{"spec":{"namespace":"default"}}`, 201,
			`{"spec":{"namespace":"default"},"status":{"resourceRules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"]}],"incomplete":false}}`},
		{"whoami", authn + "selfsubjectreviews", `{"kind":"SelfSubjectReview","apiVersion":"authentication.k8s.io/v1"}`, 201,
			`{"kind":"SelfSubjectReview","status":{"userInfo":{"username":"kubewire-fake:admin","uid":"kubewire-fake:admin","groups":["system:masters","system:authenticated"]}}}`},
		{"the server's token", authn + "tokenreviews", `{"spec":{"token":"` + s.Token() + `"}}`, 201,
			`{"status":{"authenticated":true,"user":{"username":"kubewire-fake:admin"},"audiences":["https://kubernetes.default.svc"]}}`},
		{"another token", authn + "tokenreviews", `{"spec":{"token":"nope"}}`, 201, `{"spec":{"token":"nope"},"status":{"user":{},"error":"invalid bearer token"}}`},
		{"no token", authn + "tokenreviews", `{"spec":{}}`, 400, `{"message":"token is required for TokenReview in authentication"}`},
		{"not JSON", authn + "tokenreviews", `{`, 400, `{"reason":"BadRequest"}`},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			c.t = t
			resp, b := c.do("POST", st.path, "", st.body)
			if resp.StatusCode != st.code {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, st.code, b)
			}
			assertContains(t, b, st.want)
		})
	}
	c.t = t
	c.mustDo(http.StatusMethodNotAllowed, "GET", authz+"selfsubjectaccessreviews", "")
}

// assertContains fails unless got holds every field of want (objects
// compared field by field, a list's first elements element by element,
// everything else whole).
func assertContains(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("answer: %v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want: %v", err)
	}
	if !contains(g, w) {
		t.Errorf("answer %s\ndoes not contain %s", got, want)
	}
}

func contains(g, w any) bool {
	if wl, ok := w.([]any); ok {
		gl, ok := g.([]any)
		if !ok || len(gl) < len(wl) {
			return false
		}
		for i := range wl {
			if !contains(gl[i], wl[i]) {
				return false
			}
		}
		return true
	}
	wm, ok := w.(map[string]any)
	if !ok {
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		return bytes.Equal(gb, wb)
	}
	gm, ok := g.(map[string]any)
	if !ok {
		return false
	}
	for k, wv := range wm {
		gv, ok := gm[k]
		if !ok || !contains(gv, wv) {
			return false
		}
	}
	return true
}

// TestTokenRequestProtobuf sends a TokenRequest in protobuf, as kubectl
// create token does, and reads the answer in protobuf.
func TestTokenRequestProtobuf(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/serviceaccounts", `{"metadata":{"name":"sa"}}`)
	secs := int64(600)
	sent := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{Audiences: []string{"api"}, ExpirationSeconds: &secs}}
	body, err := codec.EncodeProtobuf("authentication.k8s.io/v1", "TokenRequest", sent)
	if err != nil {
		t.Fatal(err)
	}
	post := func(contentType string, body []byte) (*http.Response, []byte) {
		req, err := http.NewRequest("POST", c.url+"/api/v1/namespaces/default/serviceaccounts/sa/token", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+c.s.Token())
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Accept", "application/vnd.kubernetes.protobuf, */*")
		resp, err := c.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, b
	}
	resp, b := post("application/vnd.kubernetes.protobuf", body)
	if resp.StatusCode != http.StatusCreated || resp.Header.Get("Content-Type") != "application/vnd.kubernetes.protobuf" {
		t.Fatalf("status %d, %s: %q", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	var got authenticationv1.TokenRequest
	if err := codec.DecodeProtobuf(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Status.Token == "" || got.Spec.ExpirationSeconds == nil || *got.Spec.ExpirationSeconds != 600 || len(got.Spec.Audiences) != 1 || got.Spec.Audiences[0] != "api" || got.Name != "sa" {
		t.Errorf("answer: %+v", got)
	}
	if resp, b := post("application/vnd.kubernetes.protobuf", []byte("k8s\x00\x0a\x03")); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a truncated protobuf body: status %d: %s", resp.StatusCode, b)
	}
}
