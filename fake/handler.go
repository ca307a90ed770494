package fake

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// request is a routed API request.
type request struct {
	res  *object.Resource
	ns   string // namespace from the path ("" for cluster-scoped or all namespaces)
	name string
	sub  string // subresource: "status", "scale", or ""
	verb string // get, list, watch, create, update, patch, delete, deletecollection
}

// ServeHTTP serves the Kubernetes API. It is safe for concurrent use.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	start := time.Now()
	defer func() {
		s.opts.Logger.Debug("fake apiserver", "method", req.Method, "url", req.URL.String(), "took", time.Since(start))
	}()
	if !s.authorized(req) {
		writeError(w, req, apierr.Unauthorized())
		return
	}
	fail, latency := s.faults.beforeRequest()
	if latency > 0 && !s.sleep(req, latency) {
		return
	}
	if fail != nil {
		writeError(w, req, fail)
		return
	}
	if s.serveDiscovery(w, req) {
		return
	}
	r, err := s.route(req)
	if err != nil {
		writeError(w, req, err)
		return
	}
	if fail, latency := s.faults.forRequest(r.info(req)); fail != nil || latency > 0 {
		if latency > 0 && !s.sleep(req, latency) {
			return
		}
		if fail != nil {
			writeError(w, req, fail)
			return
		}
	}
	if msg := deprecation(r.res); msg != "" {
		w.Header().Add("Warning", "299 - "+strconv.Quote(msg))
	}
	if r.verb != "get" && r.verb != "list" && r.verb != "watch" && s.opts.Controllers == ControllersBackground {
		// The controllers act on the write before it is answered.
		bw := &bufferedResponse{header: w.Header()}
		s.serveRouted(bw, req, r)
		s.settle()
		bw.flushTo(w)
		return
	}
	s.serveRouted(w, req, r)
}

// serveRouted serves a routed API request.
func (s *Server) serveRouted(w http.ResponseWriter, req *http.Request, r *request) {
	switch r.sub {
	case "scale":
		s.serveScale(w, req, r)
		return
	case "finalize":
		s.serveFinalize(w, req, r)
		return
	case "binding", "eviction", "token":
		s.servePostSubresource(w, req, r)
		return
	}
	switch r.verb {
	case "get":
		s.serveGet(w, req, r)
	case "list":
		s.serveList(w, req, r)
	case "watch":
		s.serveWatch(w, req, r)
	case "create":
		s.serveCreate(w, req, r)
	case "update":
		s.serveUpdate(w, req, r)
	case "patch":
		s.servePatch(w, req, r)
	case "delete":
		s.serveDelete(w, req, r)
	case "deletecollection":
		s.serveDeleteCollection(w, req, r)
	}
}

func (s *Server) authorized(req *http.Request) bool {
	h := req.Header.Get("Authorization")
	token, ok := strings.CutPrefix(h, "Bearer ")
	return ok && token == s.opts.Token
}

// route parses /api/v1/... and /apis/GROUP/VERSION/... paths.
func (s *Server) route(req *http.Request) (*request, *apierr.Error) {
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	var group, version string
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		version, parts = parts[1], parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		group, version, parts = parts[1], parts[2], parts[3:]
	case len(parts) >= 2 && parts[0] == "apis" && !s.builtinGroups[parts[1]]:
		return nil, apierr.GroupNotFound()
	default:
		return nil, apierr.PathNotFound()
	}
	notFound := apierr.PathNotFound
	if group != "" && !s.builtinGroups[group] {
		notFound = apierr.GroupNotFound
	}
	watchPath := false
	if parts[0] == "watch" && len(parts) > 1 {
		watchPath, parts = true, parts[1:]
	}
	r := &request{}
	if len(parts) >= 3 && parts[0] == "namespaces" && parts[2] != "status" && parts[2] != "finalize" {
		r.ns, parts = parts[1], parts[2:]
	}
	if len(parts) > 3 || parts[0] == "" {
		return nil, notFound()
	}
	r.res = s.lookup(group, version, parts[0])
	if r.res == nil {
		return nil, notFound()
	}
	if len(parts) > 1 {
		r.name = parts[1]
	}
	if len(parts) > 2 {
		r.sub = parts[2]
		if !(r.sub == "status" && r.res.Status) && !(r.sub == "scale" && r.res.Scale) && !(r.sub == "finalize" && r.res.Kind.Group == "" && r.res.Kind.Resource == "namespaces") && !postSubresource(r.res, r.sub) {
			return nil, notFound()
		}
	}
	if r.ns != "" && !r.res.Kind.Namespaced {
		return nil, notFound()
	}
	collection := r.name == ""
	switch req.Method {
	case http.MethodGet:
		switch {
		case !collection && !watchPath:
			r.verb = "get"
		case watchPath || isTrue(req.URL.Query().Get("watch")):
			r.verb = "watch"
		default:
			r.verb = "list"
		}
	case http.MethodPost:
		if collection || postSubresource(r.res, r.sub) {
			r.verb = "create"
		}
	case http.MethodPut:
		if !collection {
			r.verb = "update"
		}
	case http.MethodPatch:
		if !collection {
			r.verb = "patch"
		}
	case http.MethodDelete:
		if collection {
			r.verb = "deletecollection"
		} else {
			r.verb = "delete"
		}
	}
	if r.verb == "" || (watchPath && r.verb != "watch") || r.sub == "finalize" && r.verb != "update" || postSubresource(r.res, r.sub) && r.verb != "create" {
		return nil, apierr.MethodNotAllowed()
	}
	if r.res.Kind.Namespaced && r.ns == "" && !collection {
		return nil, notFound()
	}
	if (r.verb == "create" || r.verb == "deletecollection") && r.res.Kind.Namespaced && r.ns == "" {
		return nil, notFound()
	}
	return r, nil
}

// isTrue reads a boolean query parameter as kube-apiserver's parameter
// codec does (strconv.ParseBool: the Python client sends watch=True).
func isTrue(v string) bool {
	b, err := strconv.ParseBool(v)
	return err == nil && b
}

// bufferedResponse holds a response until the controllers have acted
// on the write it answers.
type bufferedResponse struct {
	header http.Header
	code   int
	body   []byte
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(code int) {
	if b.code == 0 {
		b.code = code
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.code == 0 {
		b.code = http.StatusOK
	}
	b.body = append(b.body, p...)
	return len(p), nil
}

func (b *bufferedResponse) flushTo(w http.ResponseWriter) {
	if b.code == 0 {
		b.code = http.StatusOK
	}
	w.WriteHeader(b.code)
	_, _ = w.Write(b.body)
}

// deprecation is the warning kube-apiserver sends with every request
// to a deprecated built-in resource, or "".
func deprecation(r *object.Resource) string {
	if r.Custom || r.Kind.Group != "" {
		return ""
	}
	switch r.Kind.Resource {
	case "endpoints":
		return "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"
	case "componentstatuses":
		return "v1 ComponentStatus is deprecated in v1.19+"
	}
	return ""
}

// sleep waits d, and reports false when the request or the server ends
// first.
func (s *Server) sleep(req *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-req.Context().Done():
	case <-s.ctx.Done():
	}
	return false
}
