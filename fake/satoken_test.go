package fake

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestServiceAccountTokenReview issues tokens with serviceaccounts/token
// and reviews them with TokenReview: the ServiceAccount's user, groups
// and extra for a token bound to a Pod; not authenticated for another
// audience, after expiry, after the ServiceAccount is recreated, with a
// changed signature, or from another Server.
func TestServiceAccountTokenReview(t *testing.T) {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	_, c := newTestServer(t, Options{Now: func() time.Time { return clock }})
	ns := "/api/v1/namespaces/default/"
	c.mustDo(http.StatusCreated, "POST", ns+"serviceaccounts", `{"metadata":{"name":"sa"}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"p"},"spec":{"serviceAccountName":"sa","nodeName":"n1","containers":[{"name":"c","image":"i"}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"other"},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
	var sa, pod struct{ Metadata struct{ UID string } }
	decodeInto(t, c.mustDo(http.StatusOK, "GET", ns+"serviceaccounts/sa", ""), &sa)
	decodeInto(t, c.mustDo(http.StatusOK, "GET", ns+"pods/p", ""), &pod)

	token := func(spec string) string {
		t.Helper()
		var tr struct{ Status struct{ Token string } }
		decodeInto(t, c.mustDo(http.StatusCreated, "POST", ns+"serviceaccounts/sa/token", `{"spec":`+spec+`}`), &tr)
		return tr.Status.Token
	}
	type status struct {
		Authenticated bool
		User          struct {
			Username, UID string
			Groups        []string
			Extra         map[string][]string
		}
		Audiences []string
		Error     string
	}
	review := func(tok string, audiences ...string) status {
		t.Helper()
		aud, _ := json.Marshal(audiences)
		var tr struct{ Status status }
		decodeInto(t, c.mustDo(http.StatusCreated, "POST", "/apis/authentication.k8s.io/v1/tokenreviews", `{"spec":{"token":"`+tok+`","audiences":`+string(aud)+`}}`), &tr)
		return tr.Status
	}

	bound := token(`{"audiences":["vault"],"expirationSeconds":600,"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"p"}}`)
	got := review(bound, "other", "vault")
	if !got.Authenticated || got.User.Username != "system:serviceaccount:default:sa" || got.User.UID != sa.Metadata.UID ||
		!reflect.DeepEqual(got.User.Groups, []string{"system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"}) ||
		!reflect.DeepEqual(got.Audiences, []string{"vault"}) {
		t.Fatalf("review of a bound token: %+v", got)
	}
	ex := got.User.Extra
	if ex["authentication.kubernetes.io/pod-name"][0] != "p" || ex["authentication.kubernetes.io/pod-uid"][0] != pod.Metadata.UID ||
		ex["authentication.kubernetes.io/node-name"][0] != "n1" || !strings.HasPrefix(ex["authentication.kubernetes.io/credential-id"][0], "JTI=") {
		t.Errorf("extra %v", ex)
	}
	if _, ok := ex["authentication.kubernetes.io/node-uid"]; ok {
		t.Errorf("extra %v names the uid of a missing node", ex)
	}

	plain := token(`{}`)
	if got := review(plain); !got.Authenticated || !reflect.DeepEqual(got.Audiences, []string{"https://kubernetes.default.svc"}) {
		t.Errorf("review of a default token: %+v", got)
	}
	if got := review(plain, "vault"); got.Authenticated || got.Error != `[invalid bearer token, token audiences ["https://kubernetes.default.svc"] is invalid for the target audiences ["vault"]]` {
		t.Errorf("a token for the API server reviewed for vault: %+v", got)
	}
	parts := strings.Split(plain, ".")
	forged := parts[0] + "." + parts[1] + "." + strings.Repeat("A", len(parts[2]))
	if got := review(forged); got.Authenticated || got.Error != "[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]" {
		t.Errorf("a token with a forged signature authenticated: %+v", got)
	}
	_, other := newTestServer(t, Options{})
	c2 := other
	var tr struct {
		Status struct{ Authenticated bool }
	}
	c2.mustDo(http.StatusCreated, "POST", ns+"serviceaccounts", `{"metadata":{"name":"sa"}}`)
	decodeInto(t, c2.mustDo(http.StatusCreated, "POST", "/apis/authentication.k8s.io/v1/tokenreviews", `{"spec":{"token":"`+plain+`"}}`), &tr)
	if tr.Status.Authenticated {
		t.Errorf("another Server authenticated this Server's token")
	}

	// Binding refusals, as kube-apiserver's.
	c.mustDo(http.StatusNotFound, "POST", ns+"serviceaccounts/sa/token", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"gone"}}}`)
	c.mustDo(http.StatusBadRequest, "POST", ns+"serviceaccounts/sa/token", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"other"}}}`)
	c.mustDo(http.StatusConflict, "POST", ns+"serviceaccounts/sa/token", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"p","uid":"wrong"}}}`)

	clock = clock.Add(11 * time.Minute)
	if got := review(bound, "vault"); got.Authenticated || got.Error != "[invalid bearer token, service account token has expired]" {
		t.Errorf("an expired token authenticated: %+v", got)
	}
	c.mustDo(http.StatusOK, "DELETE", ns+"serviceaccounts/sa", "")
	c.mustDo(http.StatusCreated, "POST", ns+"serviceaccounts", `{"metadata":{"name":"sa"}}`)
	if got := review(plain); got.Authenticated || !strings.HasPrefix(got.Error, "[invalid bearer token, service account UID (") {
		t.Errorf("a token of a deleted ServiceAccount: %+v", got)
	}
}

func decodeInto(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}
