package fake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	authenticationv1 "github.com/kubewire/kubewire/api/authentication/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	policyv1 "github.com/kubewire/kubewire/api/policy/v1"
	"github.com/kubewire/kubewire/api/types"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// The subresources that create something other than their resource:
// pods/binding (the scheduler's), pods/eviction and
// serviceaccounts/token. They answer as kube-apiserver does.

// createdStatus is the Success Status of a binding or an eviction.
func createdStatus() []byte {
	return []byte(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}`)
}

func (s *Server) servePostSubresource(w http.ResponseWriter, req *http.Request, r *request.Request) {
	body, aerr := request.ReadBody(req)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	dry, aerr := request.DryRun(req.URL.Query())
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	switch r.Subresource {
	case "binding":
		aerr = s.bindPod(req, r, body, dry)
	case "eviction":
		aerr = s.evictPod(req, r, body, dry)
	case "token":
		var tr *authenticationv1.TokenRequest
		if tr, aerr = s.serviceAccountToken(req, r, body); aerr == nil {
			s.writeTyped(w, req, http.StatusCreated, "authentication.k8s.io/v1", "TokenRequest", tr)
			return
		}
	}
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	s.writeBody(w, req, http.StatusCreated, "application/json", createdStatus())
}

// bindPod assigns a Pod to the node a Binding names, once.
func (s *Server) bindPod(req *http.Request, r *request.Request, body []byte, dry bool) *apierr.Error {
	var b corev1.Binding
	if aerr := s.decodeBodyAs(req, body, "v1", "Binding", &b); aerr != nil {
		return aerr
	}
	if b.Name != r.Name {
		// checked before the Pod is read (BindingREST.Create v1.36.3)
		return apierr.BadRequest("name in URL does not match name in Binding object")
	}
	res := r.Res
	_, _, err := s.write(res, object.Key(r.Namespace, r.Name), dry, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if cur == nil {
			return "", nil, apierr.NotFound(res.Kind, r.Name)
		}
		old, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		next, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		p := next.Typed.(*corev1.Pod)
		if p.Spec.NodeName != "" {
			return "", nil, apierr.New(http.StatusConflict, "Conflict",
				fmt.Sprintf("Operation cannot be fulfilled on pods/binding %q: pod %s is already assigned to node %q", r.Name, r.Name, p.Spec.NodeName),
				&metav1.StatusDetails{Name: r.Name, Kind: "pods/binding"})
		}
		p.Spec.NodeName = b.Target.Name
		for k, v := range b.Annotations {
			if p.Annotations == nil {
				p.Annotations = map[string]string{}
			}
			p.Annotations[k] = v
		}
		now := s.nowTime()
		cond := corev1.PodCondition{Type: "PodScheduled", Status: "True", LastTransitionTime: now}
		replaced := false
		for i, c := range p.Status.Conditions {
			if c.Type == "PodScheduled" {
				p.Status.Conditions[i], replaced = cond, true
			}
		}
		if !replaced {
			p.Status.Conditions = append(p.Status.Conditions, cond)
		}
		return s.commitChange(cur, old, next, rv)
	})
	if err != nil {
		return apierr.From(err)
	}
	return nil
}

// evictPod deletes a Pod as an eviction does (with its own grace
// period; disruption budgets are not checked).
func (s *Server) evictPod(req *http.Request, r *request.Request, body []byte, dry bool) *apierr.Error {
	var e policyv1.Eviction
	if len(body) > 0 {
		if aerr := s.decodeBodyAs(req, body, "v1", "Eviction", &e); aerr != nil {
			return aerr
		}
		if e.Name != r.Name {
			// checked before the Pod is read (EvictionREST.Create v1.36.3)
			return apierr.BadRequest("name in URL does not match name in Eviction object")
		}
	}
	opts := &request.DeleteOptions{}
	if o := e.DeleteOptions; o != nil {
		opts.GracePeriodSeconds = o.GracePeriodSeconds
		if o.PropagationPolicy != nil {
			p := string(*o.PropagationPolicy)
			opts.PropagationPolicy = &p
		}
	}
	key := object.Key(r.Namespace, r.Name)
	res := r.Res
	// The pod is marked as disrupted, then deleted.
	_, _, err := s.write(res, key, dry, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if cur == nil {
			return "", nil, apierr.NotFound(res.Kind, r.Name)
		}
		old, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		next, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		p := next.Typed.(*corev1.Pod)
		if p.Status.Phase == "Succeeded" || p.Status.Phase == "Failed" || cur.Deleting {
			return "", nil, nil
		}
		cond := corev1.PodCondition{Type: "DisruptionTarget", Status: "True", Reason: "EvictionByEvictionAPI", Message: "Eviction API: evicting", LastTransitionTime: s.nowTime()}
		replaced := false
		for i, c := range p.Status.Conditions {
			if c.Type == cond.Type {
				p.Status.Conditions[i], replaced = cond, true
			}
		}
		if !replaced {
			p.Status.Conditions = append(p.Status.Conditions, cond)
		}
		return s.commitChange(cur, old, next, rv)
	})
	if err != nil {
		return apierr.From(err)
	}
	_, aerr := s.deleteOne(res, key, r.Name, opts, dry, nil)
	return aerr
}

// serviceAccountToken answers a TokenRequest with a JWT shaped like
// kube-apiserver's, signed with the Server's key (see satoken.go), which
// the fake's TokenReview authenticates as the ServiceAccount.
func (s *Server) serviceAccountToken(req *http.Request, r *request.Request, body []byte) (*authenticationv1.TokenRequest, *apierr.Error) {
	sa := s.store.Get(r.Res, object.Key(r.Namespace, r.Name))
	if sa == nil {
		return nil, apierr.NotFound(r.Res.Kind, r.Name)
	}
	var tr authenticationv1.TokenRequest
	if len(body) > 0 {
		if aerr := s.decodeBodyAs(req, body, "v1", "TokenRequest", &tr); aerr != nil {
			return nil, aerr
		}
	}
	// The fields the request set, as its managed fields record them.
	fields := map[string]any{"f:expirationSeconds": map[string]any{}}
	if len(tr.Spec.Audiences) > 0 {
		fields["f:audiences"] = map[string]any{}
	}
	if tr.Spec.BoundObjectRef != nil {
		fields["f:boundObjectRef"] = map[string]any{}
	}
	if tr.Spec.ExpirationSeconds == nil {
		secs := int64(3600)
		tr.Spec.ExpirationSeconds = &secs
	}
	if len(tr.Spec.Audiences) == 0 {
		tr.Spec.Audiences = []string{"https://kubernetes.default.svc"}
	}
	now := s.nowTime()
	exp := metav1.NewTime(now.Add(time.Duration(*tr.Spec.ExpirationSeconds) * time.Second))
	fv1, _ := json.Marshal(map[string]any{"f:spec": fields})
	tr.TypeMeta = metav1.TypeMeta{Kind: "TokenRequest", APIVersion: "authentication.k8s.io/v1"}
	tr.ObjectMeta = metav1.ObjectMeta{Name: r.Name, Namespace: r.Namespace, UID: metav1ObjectUID(sa), CreationTimestamp: now,
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: request.WriteManager(req), Operation: "Update", APIVersion: "authentication.k8s.io/v1", Time: &now,
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(string(fv1)), Subresource: "token"}}}
	var claims tokenClaims
	claims.Audience, claims.Expiry, claims.IssuedAt, claims.NotBefore = tr.Spec.Audiences, exp.Unix(), now.Unix(), now.Unix()
	claims.Issuer, claims.ID, claims.Subject = serviceAccountIssuer, newTokenID(), "system:serviceaccount:"+r.Namespace+":"+r.Name
	claims.K8s.Namespace, claims.K8s.ServiceAccount = r.Namespace, tokenRef{Name: r.Name, UID: sa.UID}
	if ref := tr.Spec.BoundObjectRef; ref != nil && ref.Kind == "Pod" {
		pod, aerr := s.boundPod(r.Namespace, r.Name, ref.Name, string(ref.UID))
		if aerr != nil {
			return nil, aerr
		}
		claims.K8s.Pod = &tokenRef{Name: pod.Name, UID: string(pod.UID)}
		if pod.Spec.NodeName != "" {
			// A missing Node still gives its name (without a uid).
			claims.K8s.Node = &tokenRef{Name: pod.Spec.NodeName}
			if node := s.store.Get(s.lookup("", "v1", "nodes"), object.Key("", pod.Spec.NodeName)); node != nil {
				claims.K8s.Node.UID = node.UID
			}
		}
	}
	token, err := s.signToken(&claims)
	if err != nil {
		return nil, apierr.Internal(err)
	}
	tr.Status = authenticationv1.TokenRequestStatus{Token: token, ExpirationTimestamp: exp}
	return &tr, nil
}

func metav1ObjectUID(o *object.Stored) types.UID { return types.UID(o.UID) }
