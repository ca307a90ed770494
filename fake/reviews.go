package fake

import (
	"net/http"
	"strconv"
	"strings"

	authenticationv1 "github.com/kubewire/kubewire/api/authentication/v1"
	authorizationv1 "github.com/kubewire/kubewire/api/authorization/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// The review kinds of authorization.k8s.io and authentication.k8s.io are
// created and answered, never stored. The fake authorizes every request
// its token carries, so it answers as kube-apiserver answers an admin in
// system:masters: every access review is allowed, and the rules review
// lists what such an admin holds. Validation follows kube-apiserver's
// where a client can get it wrong (the attributes, the subject, the
// token).

// adminUser is the user the fake's token authenticates as (a static
// token user whose uid is its name).
func adminUser() authenticationv1.UserInfo {
	return authenticationv1.UserInfo{
		Username: "kubewire-fake:admin",
		UID:      "kubewire-fake:admin",
		Groups:   []string{"system:masters", "system:authenticated"},
	}
}

// serveReview serves the review kinds' paths; it reports whether the
// path was one.
func (s *Server) serveReview(w http.ResponseWriter, req *http.Request) bool {
	var group, kind, ns string
	path := strings.TrimSuffix(req.URL.Path, "/")
	if rest, ok := strings.CutPrefix(path, "/apis/authorization.k8s.io/v1/namespaces/"); ok {
		if n, ok := strings.CutSuffix(rest, "/localsubjectaccessreviews"); ok && n != "" && !strings.Contains(n, "/") {
			ns, path = n, "/apis/authorization.k8s.io/v1/localsubjectaccessreviews"
		}
	}
	switch path {
	case "/apis/authorization.k8s.io/v1/localsubjectaccessreviews":
		if ns == "" {
			return false
		}
		group, kind = "authorization.k8s.io", "LocalSubjectAccessReview"
	case "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews":
		group, kind = "authorization.k8s.io", "SelfSubjectAccessReview"
	case "/apis/authorization.k8s.io/v1/subjectaccessreviews":
		group, kind = "authorization.k8s.io", "SubjectAccessReview"
	case "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews":
		group, kind = "authorization.k8s.io", "SelfSubjectRulesReview"
	case "/apis/authentication.k8s.io/v1/selfsubjectreviews":
		group, kind = "authentication.k8s.io", "SelfSubjectReview"
	case "/apis/authentication.k8s.io/v1/tokenreviews":
		group, kind = "authentication.k8s.io", "TokenReview"
	default:
		return false
	}
	if req.Method != http.MethodPost {
		request.WriteError(w, req, apierr.MethodNotAllowed())
		return true
	}
	body, aerr := request.ReadBody(req)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return true
	}
	out, aerr := s.review(req, body, group, kind, ns)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return true
	}
	s.writeTyped(w, req, http.StatusCreated, group+"/v1", kind, out)
	return true
}

// review decodes a review, validates it and fills in its status.
func (s *Server) review(req *http.Request, body []byte, group, kind, ns string) (any, *apierr.Error) {
	switch kind {
	case "LocalSubjectAccessReview":
		var r authorizationv1.LocalSubjectAccessReview
		if aerr := s.decodeBodyAs(req, body, "v1", kind, &r); aerr != nil {
			return nil, aerr
		}
		r.TypeMeta = metav1.TypeMeta{Kind: kind, APIVersion: group + "/v1"}
		switch r.Namespace {
		case "":
			r.Namespace = ns
		case ns:
		default:
			return nil, apierr.BadRequest("the namespace of the provided object does not match the namespace sent on the request")
		}
		c := attributeErrors(r.Spec.ResourceAttributes != nil, r.Spec.NonResourceAttributes)
		if r.Spec.User == "" && len(r.Spec.Groups) == 0 {
			c = append(c, apierr.Cause{Type: "FieldValueInvalid", Field: "spec.user", Message: `Invalid value: "": at least one of user or group must be specified`})
		}
		if a := r.Spec.ResourceAttributes; a != nil && a.Namespace != r.Namespace {
			c = append(c, apierr.Cause{Type: "FieldValueInvalid", Field: "spec.resourceAttributes.namespace", Message: "Invalid value: " + strconv.Quote(a.Namespace) + ": must match metadata.namespace"})
		}
		if a := r.Spec.NonResourceAttributes; a != nil {
			c = append(c, apierr.Cause{Type: "FieldValueInvalid", Field: "spec.nonResourceAttributes", Message: "Invalid value: " + nonResourceValue(a) + ": disallowed on this kind of request"})
		}
		if len(c) > 0 {
			return nil, apierr.Invalid(group, kind, "", c...)
		}
		r.Status = authorizationv1.SubjectAccessReviewStatus{Allowed: true}
		return &r, nil
	case "SelfSubjectAccessReview":
		var r authorizationv1.SelfSubjectAccessReview
		if aerr := s.decodeBodyAs(req, body, "v1", kind, &r); aerr != nil {
			return nil, aerr
		}
		r.TypeMeta = metav1.TypeMeta{Kind: kind, APIVersion: group + "/v1"}
		if c := attributeErrors(r.Spec.ResourceAttributes != nil, r.Spec.NonResourceAttributes); len(c) > 0 {
			return nil, apierr.Invalid(group, kind, "", c...)
		}
		r.Status = authorizationv1.SubjectAccessReviewStatus{Allowed: true}
		return &r, nil
	case "SubjectAccessReview":
		var r authorizationv1.SubjectAccessReview
		if aerr := s.decodeBodyAs(req, body, "v1", kind, &r); aerr != nil {
			return nil, aerr
		}
		r.TypeMeta = metav1.TypeMeta{Kind: kind, APIVersion: group + "/v1"}
		c := attributeErrors(r.Spec.ResourceAttributes != nil, r.Spec.NonResourceAttributes)
		if r.Spec.User == "" && len(r.Spec.Groups) == 0 {
			c = append(c, apierr.Cause{Type: "FieldValueInvalid", Field: "spec.user", Message: `Invalid value: "": at least one of user or group must be specified`})
		}
		if len(c) > 0 {
			return nil, apierr.Invalid(group, kind, "", c...)
		}
		// The fake checks no RBAC: every subject may do everything.
		r.Status = authorizationv1.SubjectAccessReviewStatus{Allowed: true}
		return &r, nil
	case "SelfSubjectRulesReview":
		var r authorizationv1.SelfSubjectRulesReview
		if aerr := s.decodeBodyAs(req, body, "v1", kind, &r); aerr != nil {
			return nil, aerr
		}
		r.TypeMeta = metav1.TypeMeta{Kind: kind, APIVersion: group + "/v1"}
		r.Status = adminRules()
		return &r, nil
	case "SelfSubjectReview":
		var r authenticationv1.SelfSubjectReview
		if aerr := s.decodeBodyAs(req, body, "v1", kind, &r); aerr != nil {
			return nil, aerr
		}
		return &authenticationv1.SelfSubjectReview{
			TypeMeta:   metav1.TypeMeta{Kind: kind, APIVersion: group + "/v1"},
			ObjectMeta: metav1.ObjectMeta{CreationTimestamp: s.nowTime()},
			Status:     authenticationv1.SelfSubjectReviewStatus{UserInfo: adminUser()},
		}, nil
	default: // TokenReview
		var r authenticationv1.TokenReview
		if aerr := s.decodeBodyAs(req, body, "v1", kind, &r); aerr != nil {
			return nil, aerr
		}
		r.TypeMeta = metav1.TypeMeta{Kind: kind, APIVersion: group + "/v1"}
		if r.Spec.Token == "" {
			return nil, apierr.BadRequest("token is required for TokenReview in authentication")
		}
		r.Status = s.reviewToken(r.Spec.Token, r.Spec.Audiences)
		r.ManagedFields = tokenReviewFields(req, &r, s.nowTime())
		return &r, nil
	}
}

// attributeErrors checks that an access review names exactly one of
// resource and non-resource attributes.
func attributeErrors(resource bool, nonResource *authorizationv1.NonResourceAttributes) []apierr.Cause {
	switch {
	case resource && nonResource != nil:
		return []apierr.Cause{{Type: "FieldValueInvalid", Field: "spec.nonResourceAttributes",
			Message: "Invalid value: " + nonResourceValue(nonResource) + ": cannot be specified in combination with resourceAttributes"}}
	case !resource && nonResource == nil:
		return []apierr.Cause{{Type: "FieldValueInvalid", Field: "spec.resourceAttributes",
			Message: "Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified"}}
	}
	return nil
}

// nonResourceValue prints non-resource attributes as a field error
// prints a struct value.
func nonResourceValue(a *authorizationv1.NonResourceAttributes) string {
	return `{"path":"` + a.Path + `","verb":"` + a.Verb + `"}`
}

// adminRules are the rules kube-apiserver's RBAC lists for a user in
// system:masters and system:authenticated: cluster-admin's, then the
// default roles bound to every authenticated user (system:basic-user,
// system:discovery, system:public-info-viewer), in that order.
func adminRules() authorizationv1.SubjectRulesReviewStatus {
	get := []string{"get"}
	return authorizationv1.SubjectRulesReviewStatus{
		ResourceRules: []authorizationv1.ResourceRule{
			{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}},
			{Verbs: []string{"create"}, APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"selfsubjectaccessreviews", "selfsubjectrulesreviews"}},
			{Verbs: []string{"create"}, APIGroups: []string{"authentication.k8s.io"}, Resources: []string{"selfsubjectreviews"}},
		},
		NonResourceRules: []authorizationv1.NonResourceRule{
			{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}},
			{Verbs: get, NonResourceURLs: []string{"/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/"}},
			{Verbs: get, NonResourceURLs: []string{"/healthz", "/livez", "/readyz", "/version", "/version/"}},
		},
	}
}

// reviewToken authenticates a token as the fake would a request
// carrying it: its own token is the admin, a token of
// serviceaccounts/token its ServiceAccount; any other is not
// authenticated.
func (s *Server) reviewToken(token string, audiences []string) authenticationv1.TokenReviewStatus {
	if token != s.opts.Token {
		return s.reviewServiceAccountToken(token, audiences)
	}
	if len(audiences) == 0 {
		audiences = []string{"https://kubernetes.default.svc"}
	}
	return authenticationv1.TokenReviewStatus{Authenticated: true, User: adminUser(), Audiences: audiences}
}
