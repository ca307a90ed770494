package fake

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// format is a response encoding.
type format int

const (
	formatJSON format = iota
	formatYAML
	formatProtobuf
)

func (f format) contentType() string {
	switch f {
	case formatYAML:
		return codec.MediaTypeYAML
	case formatProtobuf:
		return codec.MediaTypeProtobuf
	}
	return codec.MediaTypeJSON
}

// Conversions a client may ask for with the as= media type parameter.
const (
	asTable       = "Table"
	asPartial     = "PartialObjectMetadata"
	asPartialList = "PartialObjectMetadataList"
)

// output is the negotiated representation of a response.
type output struct {
	format format
	as     string
	// res is the resource asked for: a custom resource's objects are
	// served at its version.
	res *object.Resource
	// version is the meta.k8s.io version of a Table or
	// PartialObjectMetadata ("v1" or "v1beta1").
	version string
	// include is a Table's includeObject: None, Metadata (the default)
	// or Object.
	include string
	// noHeaders leaves a Table's column definitions out (the events of a
	// watch after the first).
	noHeaders bool
}

func mediaType(t, sub string) codec.MediaType { return codec.MediaType{Type: t, Subtype: sub} }

// offers lists what the server can serve for a resource, in the order
// kube-apiserver prefers them when a range matches several.
func (s *Server) offers(r *object.Resource, list, watch bool) []codec.MediaType {
	jsonT, yamlT, pbT := mediaType("application", "json"), mediaType("application", "yaml"), mediaType("application", "vnd.kubernetes.protobuf")
	protobuf := !r.Custom && !s.faults.refuseProtobuf()
	out := []codec.MediaType{jsonT}
	if !watch {
		out = append(out, yamlT)
	}
	if protobuf {
		out = append(out, pbT)
	}
	partial := asPartial
	if list {
		partial = asPartialList
	}
	for _, v := range []string{"v1", "v1beta1"} {
		out = append(out, jsonT.As(partial).With(codec.ParamVersion, v))
		if protobuf {
			out = append(out, pbT.As(partial).With(codec.ParamVersion, v))
		}
		out = append(out, jsonT.As(asTable).With(codec.ParamVersion, v))
	}
	return out
}

// negotiate picks the response representation from the Accept header.
func (s *Server) negotiate(req *http.Request, r *object.Resource, list, watch bool) (output, *apierr.Error) {
	accept, err := codec.ParseAccept(req.Header.Get("Accept"))
	if err != nil {
		return output{}, apierr.NotAcceptableFor(r.Custom)
	}
	mt, ok := codec.Negotiate(accept, s.offers(r, list, watch))
	if !ok {
		// A media type the resource is served in, with parameters it
		// does not take (a Table in protobuf), fails in the handler
		// rather than the router.
		for _, a := range accept {
			for _, o := range s.offers(r, list, watch) {
				if a.MediaType.Essence() == o.Essence() && a.MediaType.Param(codec.ParamAs) != "" {
					return output{}, apierr.NotAcceptable()
				}
			}
		}
		return output{}, apierr.NotAcceptableFor(r.Custom)
	}
	o := output{as: mt.Param(codec.ParamAs), res: r, version: mt.Param(codec.ParamVersion), include: req.URL.Query().Get("includeObject")}
	switch {
	case mt.IsProtobuf():
		o.format = formatProtobuf
	case mt.IsYAML():
		o.format = formatYAML
	}
	return o, nil
}

// statusFormat picks the encoding of a Status body: what the client
// accepts among JSON, YAML and protobuf, else JSON.
func statusFormat(req *http.Request) format {
	accept, err := codec.ParseAccept(req.Header.Get("Accept"))
	if err != nil {
		return formatJSON
	}
	mt, ok := codec.Negotiate(accept, []codec.MediaType{mediaType("application", "json"), mediaType("application", "yaml"), mediaType("application", "vnd.kubernetes.protobuf")})
	switch {
	case !ok:
		return formatJSON
	case mt.IsProtobuf():
		return formatProtobuf
	case mt.IsYAML():
		return formatYAML
	}
	return formatJSON
}

// encodeStatus encodes a Status in f.
func encodeStatus(st *metav1.Status, f format) []byte {
	switch f {
	case formatProtobuf:
		b, err := codec.EncodeProtobuf("v1", "Status", st)
		if err == nil {
			return b
		}
	case formatYAML:
		j, _ := json.Marshal(st)
		if y, err := codec.JSONToYAML(j); err == nil {
			return y
		}
	}
	b, _ := json.Marshal(st)
	return b
}

// writeError answers with err's Status (any other error is a 500).
func writeError(w http.ResponseWriter, req *http.Request, err error) {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		ae = apierr.Internal(err)
	}
	if ae.Plain {
		h := w.Header()
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "404 page not found\n")
		return
	}
	f := statusFormat(req)
	body := encodeStatus(&ae.Status, f)
	h := w.Header()
	h.Set("Content-Type", f.contentType())
	h.Set("Cache-Control", "no-cache, private")
	apierr.RetryAfterHeader(h, ae.RetryAfter)
	w.WriteHeader(int(ae.Status.Code))
	_, _ = w.Write(body)
}

// bodyWriter streams a response body, gzip-compressed when the client
// accepts it and the body is large enough, through a buffer.
type bodyWriter struct {
	bw *bufio.Writer
	gz *gzip.Writer
}

// startBody writes the headers and returns the body writer; size is the
// body's length when known (-1 otherwise), used for the gzip threshold.
func (s *Server) startBody(w http.ResponseWriter, req *http.Request, code int, contentType string, size int) *bodyWriter {
	h := w.Header()
	h.Set("Content-Type", contentType)
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-cache, private")
	}
	var out io.Writer = w
	b := &bodyWriter{}
	if acceptsGzip(req) && (size < 0 || size >= s.opts.GzipThreshold) {
		h.Set("Content-Encoding", "gzip")
		h.Add("Vary", "Accept-Encoding")
		b.gz = gzip.NewWriter(w)
		out = b.gz
	}
	w.WriteHeader(code)
	b.bw = bufio.NewWriterSize(out, 32<<10)
	return b
}

func (b *bodyWriter) Write(p []byte) (int, error) { return b.bw.Write(p) }

func (b *bodyWriter) WriteString(p string) (int, error) { return b.bw.WriteString(p) }

// Close flushes the buffer and the gzip stream.
func (b *bodyWriter) Close() error {
	err := b.bw.Flush()
	if b.gz != nil {
		if cerr := b.gz.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

func acceptsGzip(req *http.Request) bool {
	for _, v := range req.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(v, ",") {
			name, _, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(name, "gzip") {
				return true
			}
		}
	}
	return false
}

// writeBody answers with a complete body.
func (s *Server) writeBody(w http.ResponseWriter, req *http.Request, code int, contentType string, body []byte) {
	bw := s.startBody(w, req, code, contentType, len(body))
	_, _ = bw.Write(body)
	_ = bw.Close()
}
