package fake

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// ServeHTTP serves the Kubernetes API. It is safe for concurrent use.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	start := time.Now()
	defer func() {
		s.opts.Logger.Debug("fake apiserver", "method", req.Method, "url", req.URL.String(), "took", time.Since(start))
	}()
	if s.opts.CBOR {
		req = req.WithContext(request.WithCBORGate(req.Context()))
	}
	if !s.authorized(req) {
		request.WriteError(w, req, apierr.Unauthorized())
		return
	}
	fail, latency := s.faults.beforeRequest(s.opts.CBOR)
	if latency > 0 && !s.sleep(req, latency) {
		return
	}
	if fail != nil {
		request.WriteError(w, req, fail)
		return
	}
	if s.disc.Serve(w, req) || s.serveReview(w, req) {
		return
	}
	r, err := request.Route(req, s.lookup, s.isBuiltinGroup)
	if err != nil {
		request.WriteError(w, req, err)
		return
	}
	r.Warn = func(msg string) { w.Header().Add("Warning", "299 - "+strconv.Quote(msg)) }
	converted, aerr := cborBodyAsJSON(req, r)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	req = converted
	if fail, latency := s.faults.forRequest(r.Info(req)); fail != nil || latency > 0 {
		if latency > 0 && !s.sleep(req, latency) {
			return
		}
		if fail != nil {
			request.WriteError(w, req, fail)
			return
		}
	}
	if msg := deprecation(r.Res); msg != "" {
		w.Header().Add("Warning", "299 - "+strconv.Quote(msg))
	}
	if r.Verb != "get" && r.Verb != "list" && r.Verb != "watch" && s.opts.Controllers == ControllersBackground {
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
func (s *Server) serveRouted(w http.ResponseWriter, req *http.Request, r *request.Request) {
	switch r.Subresource {
	case "scale":
		s.serveScale(w, req, r)
		return
	case "finalize":
		s.serveFinalize(w, req, r)
		return
	case "binding", "eviction", "token":
		s.servePostSubresource(w, req, r)
		return
	case "log", "exec", "attach", "portforward":
		s.servePodConnect(w, req, r)
		return
	case "proxy":
		s.serveProxy(w, req, r)
		return
	}
	switch r.Verb {
	case "get":
		s.serveGet(w, req, r)
	case "list":
		s.serveList(w, req, r)
	case "watch":
		s.watches().Serve(w, req, r)
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

// bufferedResponse holds a response until the controllers have acted
// on the write it answers.
type bufferedResponse struct {
	header http.Header
	code   int
	// chunks are the body as written: kept in pieces, a large body is
	// copied once rather than each time one buffer would grow.
	chunks [][]byte
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
	b.chunks = append(b.chunks, bytes.Clone(p))
	return len(p), nil
}

func (b *bufferedResponse) flushTo(w http.ResponseWriter) {
	if b.code == 0 {
		b.code = http.StatusOK
	}
	w.WriteHeader(b.code)
	for _, c := range b.chunks {
		if _, err := w.Write(c); err != nil {
			return
		}
	}
}

// deprecation is the warning kube-apiserver sends with every request
// to a deprecated resource, or "".
func deprecation(r *object.Resource) string {
	if r.CRD != nil {
		return r.CRD.Deprecation
	}
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
