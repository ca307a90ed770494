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

// verifyToken returns the claims of a token this Server signed, or
// false.
func (s *Server) verifyToken(token string) (*tokenClaims, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, false
	}
	enc := base64.RawURLEncoding
	sig, err := enc.DecodeString(parts[2])
	if err != nil || !ed25519.Verify(s.saKey.Public().(ed25519.PublicKey), []byte(parts[0]+"."+parts[1]), sig) {
		return nil, false
	}
	payload, err := enc.DecodeString(parts[1])
	if err != nil {
		return nil, false
	}
	var c tokenClaims
	if json.Unmarshal(payload, &c) != nil {
		return nil, false
	}
	return &c, true
}

// reviewServiceAccountToken authenticates a service account token for
// the audiences a TokenReview names (kube-apiserver's own when it names
// none), or reports false.
func (s *Server) reviewServiceAccountToken(token string, audiences []string) (authenticationv1.TokenReviewStatus, bool) {
	c, ok := s.verifyToken(token)
	if !ok || c.Issuer != serviceAccountIssuer {
		return authenticationv1.TokenReviewStatus{}, false
	}
	now := s.nowTime().Unix()
	if now >= c.Expiry || now < c.NotBefore {
		return authenticationv1.TokenReviewStatus{}, false
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
		return authenticationv1.TokenReviewStatus{}, false
	}
	ns, sa := c.K8s.Namespace, c.K8s.ServiceAccount
	if !s.storedWithUID("serviceaccounts", ns, sa) || c.K8s.Pod != nil && !s.storedWithUID("pods", ns, *c.K8s.Pod) {
		// A deleted (or deleted and recreated) object voids its tokens.
		return authenticationv1.TokenReviewStatus{}, false
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
	return authenticationv1.TokenReviewStatus{Authenticated: true, User: user, Audiences: matched}, true
}

// storedWithUID reports whether the core object ns/ref.Name is stored
// with ref.UID.
func (s *Server) storedWithUID(resource, ns string, ref tokenRef) bool {
	res := s.lookup("", "v1", resource)
	if res == nil {
		return false
	}
	o := s.store.Get(res, object.Key(ns, ref.Name))
	return o != nil && o.UID == ref.UID
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
