package fake

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	authenticationv1 "github.com/kubewire/kubewire/api/authentication/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// ServiceAccount tokens: serviceaccounts/token issues a JWT signed with
// a key each Server generates when it starts, and TokenReview
// authenticates it as kube-apiserver's service account authenticator
// does: signature, issuer, lifetime, audiences, and the ServiceAccount
// (and a bound Pod) still existing with the uid the token names.

// serviceAccountIssuer is kube-apiserver's default --service-account-issuer
// in the test clusters this fake stands for.
const serviceAccountIssuer = "https://kubernetes.default.svc"

// newServiceAccountKey is a fresh signing key; a Server's tokens are
// valid for it alone.
func newServiceAccountKey() ed25519.PrivateKey {
	seed := make([]byte, ed25519.SeedSize)
	_, _ = rand.Read(seed) // crypto/rand.Read never returns an error
	return ed25519.NewKeyFromSeed(seed)
}

// tokenClaims are the claims of a service account token.
type tokenClaims struct {
	Audience  []string `json:"aud"`
	Expiry    int64    `json:"exp"`
	IssuedAt  int64    `json:"iat"`
	NotBefore int64    `json:"nbf"`
	Issuer    string   `json:"iss"`
	ID        string   `json:"jti"`
	Subject   string   `json:"sub"`
	K8s       struct {
		Namespace      string    `json:"namespace"`
		ServiceAccount tokenRef  `json:"serviceaccount"`
		Pod            *tokenRef `json:"pod,omitempty"`
		Node           *tokenRef `json:"node,omitempty"`
	} `json:"kubernetes.io"`
}

type tokenRef struct {
	Name string `json:"name"`
	UID  string `json:"uid"`
}

// newTokenID is a random jti, as kube-apiserver gives each token.
func newTokenID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:4]) + "-" + hex.EncodeToString(b[4:6]) + "-" + hex.EncodeToString(b[6:8]) + "-" + hex.EncodeToString(b[8:10]) + "-" + hex.EncodeToString(b[10:])
}

// signToken is the compact JWS of claims, signed with the Server's key.
func (s *Server) signToken(c *tokenClaims) (string, error) {
	payload, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	signed := enc.EncodeToString([]byte(`{"alg":"EdDSA","kid":"kubewire-fake"}`)) + "." + enc.EncodeToString(payload)
	return signed + "." + enc.EncodeToString(ed25519.Sign(s.saKey, []byte(signed))), nil
}

// reviewServiceAccountToken authenticates a service account token for
// the audiences a TokenReview names (kube-apiserver's own when it names
// none). A token it refuses gets kube-apiserver's error text, checked in
// kube-apiserver's order: signature, lifetime, the ServiceAccount and a
// bound Pod, audiences.
func (s *Server) reviewServiceAccountToken(token string, audiences []string) authenticationv1.TokenReviewStatus {
	c, reason := s.tokenClaimsOf(token)
	if c == nil {
		return tokenRefused(reason)
	}
	now := s.nowTime().Unix()
	if now >= c.Expiry || now < c.NotBefore {
		return tokenRefused("service account token has expired")
	}
	ns, sa := c.K8s.Namespace, c.K8s.ServiceAccount
	if uid, ok := s.storedUID("serviceaccounts", ns, sa.Name); !ok {
		return tokenRefused(fmt.Sprintf("service account %s/%s has been deleted", ns, sa.Name))
	} else if uid != sa.UID {
		return tokenRefused(fmt.Sprintf("service account UID (%s) does not match claim (%s)", uid, sa.UID))
	}
	if p := c.K8s.Pod; p != nil {
		if uid, ok := s.storedUID("pods", ns, p.Name); !ok {
			return tokenRefused("service account token has been invalidated")
		} else if uid != p.UID {
			return tokenRefused(fmt.Sprintf("pod UID (%s) does not match service account pod ref claim (%s)", uid, p.UID))
		}
	}
	if len(audiences) == 0 {
		audiences = []string{serviceAccountIssuer}
	}
	var matched []string
	for _, a := range audiences {
		if slices.Contains(c.Audience, a) {
			matched = append(matched, a)
		}
	}
	if len(matched) == 0 {
		return tokenRefused(fmt.Sprintf("token audiences %q is invalid for the target audiences %q", c.Audience, audiences))
	}
	user := authenticationv1.UserInfo{
		Username: "system:serviceaccount:" + ns + ":" + sa.Name,
		UID:      sa.UID,
		Groups:   []string{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"},
		Extra:    map[string]authenticationv1.ExtraValue{"authentication.kubernetes.io/credential-id": {"JTI=" + c.ID}},
	}
	if p := c.K8s.Pod; p != nil {
		user.Extra["authentication.kubernetes.io/pod-name"] = authenticationv1.ExtraValue{p.Name}
		user.Extra["authentication.kubernetes.io/pod-uid"] = authenticationv1.ExtraValue{p.UID}
	}
	if n := c.K8s.Node; n != nil {
		user.Extra["authentication.kubernetes.io/node-name"] = authenticationv1.ExtraValue{n.Name}
		if n.UID != "" {
			user.Extra["authentication.kubernetes.io/node-uid"] = authenticationv1.ExtraValue{n.UID}
		}
	}
	return authenticationv1.TokenReviewStatus{Authenticated: true, User: user, Audiences: matched}
}

// tokenClaimsOf is the claims of a token this Server signed, or why the
// token is refused ("" when it is no service account token of this
// issuer at all).
func (s *Server) tokenClaimsOf(token string) (*tokenClaims, string) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, ""
	}
	enc := base64.RawURLEncoding
	payload, err := enc.DecodeString(parts[1])
	if err != nil {
		return nil, ""
	}
	var c tokenClaims
	if json.Unmarshal(payload, &c) != nil || c.Issuer != serviceAccountIssuer {
		return nil, ""
	}
	sig, err := enc.DecodeString(parts[2])
	if err != nil || !ed25519.Verify(s.saKey.Public().(ed25519.PublicKey), []byte(parts[0]+"."+parts[1]), sig) {
		// kube-apiserver's JOSE library's words for a bad signature.
		return nil, "go-jose/go-jose: error in cryptographic primitive"
	}
	return &c, ""
}

// tokenRefused is the status of a token no authenticator accepted:
// kube-apiserver's union of authenticators adds the reason of the one
// that recognised the token.
func tokenRefused(reason string) authenticationv1.TokenReviewStatus {
	if reason == "" {
		return authenticationv1.TokenReviewStatus{Error: "invalid bearer token"}
	}
	return authenticationv1.TokenReviewStatus{Error: "[invalid bearer token, " + reason + "]"}
}

// storedUID is the uid of the stored core object ns/name, if any.
func (s *Server) storedUID(resource, ns, name string) (string, bool) {
	res := s.lookup("", "v1", resource)
	if res == nil {
		return "", false
	}
	o := s.store.Get(res, object.Key(ns, name))
	if o == nil {
		return "", false
	}
	return o.UID, true
}

// boundPod is the Pod a TokenRequest binds its token to, checked as
// kube-apiserver checks it: it exists, runs as the ServiceAccount, and
// has the uid the reference names, if any.
func (s *Server) boundPod(ns, sa, name, uid string) (*corev1.Pod, *apierr.Error) {
	res := s.lookup("", "v1", "pods")
	o := s.store.Get(res, object.Key(ns, name))
	if o == nil {
		return nil, apierr.NotFound(res.Kind, name)
	}
	pod, aerr := typedAs[*corev1.Pod](res, o)
	if aerr != nil {
		return nil, aerr
	}
	if pod.Spec.ServiceAccountName != sa {
		return nil, apierr.BadRequest(fmt.Sprintf("cannot bind token for serviceaccount %q to pod running with different serviceaccount name.", sa))
	}
	if uid != "" && uid != o.UID {
		return nil, apierr.New(http.StatusConflict, "Conflict",
			fmt.Sprintf("Operation cannot be fulfilled on Pod %q: the UID in the bound object reference (%s) does not match the UID in record. The object might have been deleted and then recreated", name, uid),
			&metav1.StatusDetails{Name: name, Kind: "Pod"})
	}
	return pod, nil
}

// tokenReviewFields is the managed fields entry kube-apiserver records
// on the TokenReview it answers: the spec fields the request set.
func tokenReviewFields(req *http.Request, r *authenticationv1.TokenReview, now metav1.Time) []metav1.ManagedFieldsEntry {
	fields := map[string]any{"f:token": map[string]any{}}
	if len(r.Spec.Audiences) > 0 {
		fields["f:audiences"] = map[string]any{}
	}
	fv1, _ := json.Marshal(map[string]any{"f:spec": fields})
	return []metav1.ManagedFieldsEntry{{Manager: request.WriteManager(req), Operation: "Update", APIVersion: "authentication.k8s.io/v1", Time: &now,
		FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(string(fv1))}}
}
