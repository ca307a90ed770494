package request

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Format is a response encoding.
type Format int

const (
	FormatJSON Format = iota
	FormatYAML
	FormatProtobuf
	// FormatCBOR is application/cbor, served only with the
	// CBORServingAndStorage gate (see WithCBORGate).
	FormatCBOR
)

func (f Format) ContentType() string {
	switch f {
	case FormatYAML:
		return codec.MediaTypeYAML
	case FormatProtobuf:
		return codec.MediaTypeProtobuf
	case FormatCBOR:
		return codec.MediaTypeCBOR
	}
	return codec.MediaTypeJSON
}

// Conversions a client may ask for with the as= media type parameter.
const (
	AsTable       = "Table"
	AsPartial     = "PartialObjectMetadata"
	asPartialList = "PartialObjectMetadataList"
)

// Output is the negotiated representation of a response.
type Output struct {
	Format Format
	As     string
	// res is the resource asked for: a custom resource's objects are
	// served at its version.
	res *object.Resource
	// version is the meta.k8s.io version of a Table or
	// PartialObjectMetadata ("v1" or "v1beta1").
	version string
	// include is a Table's includeObject: None, Metadata (the default)
	// or Object.
	include string
	// NoHeaders leaves a Table's column definitions out (the events of a
	// watch after the first).
	NoHeaders bool
	// list: the answer is a list.
	list bool
}

// Mismatch is the error of PartialObjectMetadata asked for a list, or
// PartialObjectMetadataList for one object, as kube-apiserver answers it
// when it converts the answer, after the read or the write: a 406 naming
// its internal type, and for one custom resource a 500.
func (o Output) Mismatch() *apierr.Error {
	switch {
	case o.As == AsPartial && o.list:
		typ := "*unstructured.UnstructuredList"
		if !o.res.Custom {
			typ = "*" + internalTypePackage(o.res.Kind.Group) + "." + o.res.Kind.ListKind
		}
		return apierr.New(http.StatusNotAcceptable, "NotAcceptable", "you requested PartialObjectMetadata, but the requested object is a list ("+typ+")", nil)
	case o.As == asPartialList && !o.list:
		if o.res.Custom {
			return apierr.New(http.StatusInternalServerError, "", "content is not a list", nil)
		}
		return apierr.New(http.StatusNotAcceptable, "NotAcceptable", "you requested PartialObjectMetadataList, but the requested object is not a list (*"+internalTypePackage(o.res.Kind.Group)+"."+o.res.Kind.Kind+")", nil)
	}
	return nil
}

// internalTypePackage is the package of kube-apiserver's internal types
// of a group, where the Events of events.k8s.io are core's.
func internalTypePackage(group string) string {
	if group == "events.k8s.io" {
		return "core"
	}
	return internalPackage(group)
}

func MediaType(t, sub string) codec.MediaType { return codec.MediaType{Type: t, Subtype: sub} }

// offers lists what the server can serve for a resource, in the order
// kube-apiserver prefers them when a range matches several. With the
// CBOR gate, CBOR comes last (kube-apiserver appends its serializer),
// for objects and PartialObjectMetadata but not Tables, which it
// serves in JSON and YAML only.
func offers(r *object.Resource, list, watch, refuseProtobuf, cbor bool) []codec.MediaType {
	jsonT, yamlT, pbT, cborT := MediaType("application", "json"), MediaType("application", "yaml"), MediaType("application", "vnd.kubernetes.protobuf"), MediaType("application", "cbor")
	protobuf := !r.Custom && !refuseProtobuf
	out := []codec.MediaType{jsonT}
	if !watch {
		out = append(out, yamlT)
	}
	if protobuf {
		out = append(out, pbT)
	}
	if cbor {
		out = append(out, cborT)
	}
	// kube-apiserver offers both metadata kinds for objects and lists
	// and refuses the wrong one when it converts the answer (see
	// Output.Mismatch); a watch takes PartialObjectMetadata only.
	partials := []string{AsPartial, asPartialList}
	if list {
		partials = []string{asPartialList, AsPartial}
	}
	if watch {
		partials = partials[:1]
	}
	for _, v := range []string{"v1", "v1beta1"} {
		for _, partial := range partials {
			out = append(out, jsonT.As(partial).With(codec.ParamVersion, v))
			if protobuf {
				out = append(out, pbT.As(partial).With(codec.ParamVersion, v))
			}
			if cbor {
				out = append(out, cborT.As(partial).With(codec.ParamVersion, v))
			}
		}
		out = append(out, jsonT.As(AsTable).With(codec.ParamVersion, v))
		if !watch {
			for _, partial := range partials {
				out = append(out, yamlT.As(partial).With(codec.ParamVersion, v))
			}
			out = append(out, yamlT.As(AsTable).With(codec.ParamVersion, v))
		}
	}
	return out
}

// Negotiate picks the response representation from the Accept header;
// refuseProtobuf serves JSON and YAML only.
func Negotiate(req *http.Request, r *object.Resource, list, watch, refuseProtobuf bool) (Output, *apierr.Error) {
	cbor := CBORGate(req)
	accept, err := codec.ParseAccept(req.Header.Get("Accept"))
	if err != nil {
		return Output{}, notAcceptable(r.Custom, cbor)
	}
	accept = withoutUnknownParams(accept)
	mt, ok := codec.Negotiate(accept, offers(r, list, watch, refuseProtobuf, cbor))
	if !ok {
		// A media type the resource is served in, with parameters it
		// does not take (a Table in protobuf, a stream it cannot
		// serve), fails in the handler rather than the router.
		for _, a := range accept {
			for _, o := range offers(r, list, watch, refuseProtobuf, cbor) {
				if a.MediaType.Essence() == o.Essence() && (a.MediaType.Param(codec.ParamAs) != "" || a.MediaType.Param("stream") != "") {
					return Output{}, apierr.NotAcceptableMediaTypes(cbor)
				}
			}
		}
		return Output{}, notAcceptable(r.Custom, cbor)
	}
	o := Output{As: mt.Param(codec.ParamAs), res: r, list: list, version: mt.Param(codec.ParamVersion), include: req.URL.Query().Get("includeObject")}
	if o.As == AsTable {
		switch o.include {
		case "", "None", "Metadata", "Object":
		default:
			return Output{}, apierr.BadRequest(fmt.Sprintf("Unable to convert to Table as requested: includeObject: Invalid value: %q: must be 'Metadata', 'Object', 'None', or empty", o.include))
		}
	}
	switch {
	case mt.IsProtobuf():
		o.Format = FormatProtobuf
	case mt.IsYAML():
		o.Format = FormatYAML
	case mt.IsCBOR():
		o.Format = FormatCBOR
	}
	return o, nil
}

// negotiatedParams are the Accept parameters kube-apiserver's
// negotiation reads; it ignores the others.
var negotiatedParams = map[string]bool{codec.ParamAs: true, codec.ParamGroup: true, codec.ParamVersion: true, "stream": true, "pretty": true}

// withoutUnknownParams drops from each range the parameters
// kube-apiserver ignores (includeObject, charset, any other).
func withoutUnknownParams(accept []codec.AcceptRange) []codec.AcceptRange {
	out := make([]codec.AcceptRange, len(accept))
	for i, r := range accept {
		out[i] = r
		out[i].Params = nil
		for _, p := range r.Params {
			if p.Name == "stream" && streamable(r.MediaType, p.Value) {
				continue // taken, and no part of the match
			}
			if negotiatedParams[p.Name] {
				out[i].Params = append(out[i].Params, p)
			}
		}
	}
	return out
}

// streamable says whether kube-apiserver takes stream=value on a range
// of media type mt: an empty value always, "watch" on the types it has a
// stream serializer for (not YAML). A range whose stream it does not
// take matches nothing: the parameter is kept, and no offer has it.
func streamable(mt codec.MediaType, value string) bool {
	return value == "" || value == "watch" && !mt.IsYAML()
}

// notAcceptable is the 406 of a resource, listing the CBOR media type
// when the gate is on.
func notAcceptable(custom, cbor bool) *apierr.Error {
	if !cbor {
		return apierr.NotAcceptableFor(custom)
	}
	if custom {
		return apierr.NotAcceptableMediaTypes(true)
	}
	return apierr.NotAcceptableRouter(true)
}

// PlainFormat picks the encoding of an object that is not stored (a
// review, a TokenRequest): what the client accepts among JSON, YAML
// and protobuf, else JSON.
func PlainFormat(req *http.Request) Format { return statusFormat(req) }

// statusFormat picks the encoding of a Status body: what the client
// accepts among JSON, YAML and protobuf, else JSON.
func statusFormat(req *http.Request) Format {
	f, _ := negotiateStatus(req)
	return f
}

// negotiateStatus is statusFormat, and whether the client accepts the
// format (JSON is the fallback for one that accepts none).
func negotiateStatus(req *http.Request) (Format, bool) {
	if req.Header.Get("Accept") == "" {
		return FormatJSON, true
	}
	accept, err := codec.ParseAccept(req.Header.Get("Accept"))
	if err != nil {
		return FormatJSON, false
	}
	offered := []codec.MediaType{MediaType("application", "json"), MediaType("application", "yaml"), MediaType("application", "vnd.kubernetes.protobuf")}
	if CBORGate(req) {
		offered = append(offered, MediaType("application", "cbor"))
	}
	mt, ok := codec.Negotiate(accept, offered)
	switch {
	case !ok:
		return FormatJSON, false
	case mt.IsProtobuf():
		return FormatProtobuf, true
	case mt.IsYAML():
		return FormatYAML, true
	case mt.IsCBOR():
		return FormatCBOR, true
	}
	return FormatJSON, true
}

// EncodeStatus encodes a Status in f.
func EncodeStatus(st *metav1.Status, f Format) []byte {
	switch f {
	case FormatProtobuf:
		b, err := codec.EncodeProtobuf("v1", "Status", st)
		if err == nil {
			return b
		}
	case FormatYAML:
		j, _ := json.Marshal(st)
		if y, err := codec.JSONToYAML(j); err == nil {
			return y
		}
	case FormatCBOR:
		j, _ := json.Marshal(st)
		if c, err := JSONToCBOR(j); err == nil {
			return c
		}
	}
	b, _ := json.Marshal(st)
	return b
}

// WriteError answers with err's Status (any other error is a 500).
func WriteError(w http.ResponseWriter, req *http.Request, err error) {
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
	f, negotiated := negotiateStatus(req)
	body := EncodeStatus(&ae.Status, f)
	h := w.Header()
	h.Set("Content-Type", f.ContentType())
	h.Set("Cache-Control", "no-cache, private")
	apierr.RetryAfterHeader(h, ae.RetryAfter)
	w.WriteHeader(int(ae.Status.Code))
	if isJSON(f.ContentType()) {
		// kube-apiserver indents the JSON it falls back to when the
		// client accepts no media type a Status is served in.
		if !negotiated || wantsPretty(req) {
			body = Indent(body)
		} else if !bytes.HasSuffix(body, []byte("\n")) {
			body = append(body, '\n')
		}
	}
	_, _ = w.Write(body)
}

// BodyWriter streams a response body, gzip-compressed when the client
// accepts it and the body is large enough, through a buffer. A JSON body
// ends as kube-apiserver's serializer ends it: with a newline, or indented
// when the client asks for pretty output (the body is then held until
// Close).
type BodyWriter struct {
	bw     *bufio.Writer
	gz     *gzip.Writer
	json   bool          // end the body with a newline
	pretty *bytes.Buffer // the whole body, indented at Close
	last   byte          // the last byte written
}

// StartBody writes the headers and returns the body writer; size is the
// body's length when known (-1 otherwise): bodies of gzipThreshold bytes
// or more (or of unknown size) are compressed for clients that accept
// gzip.
func StartBody(w http.ResponseWriter, req *http.Request, code int, contentType string, size, gzipThreshold int) *BodyWriter {
	b := startRaw(w, req, code, contentType, size, gzipThreshold)
	if isJSON(contentType) {
		b.json = true
		if wantsPretty(req) {
			b.pretty = new(bytes.Buffer)
		}
	}
	return b
}

func startRaw(w http.ResponseWriter, req *http.Request, code int, contentType string, size, gzipThreshold int) *BodyWriter {
	h := w.Header()
	h.Set("Content-Type", contentType)
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-cache, private")
	}
	var out io.Writer = w
	b := &BodyWriter{}
	if AcceptsGzip(req) && (size < 0 || size >= gzipThreshold) {
		h.Set("Content-Encoding", "gzip")
		h.Add("Vary", "Accept-Encoding")
		b.gz = gzip.NewWriter(w)
		out = b.gz
	}
	w.WriteHeader(code)
	b.bw = bufio.NewWriterSize(out, 32<<10)
	return b
}

func (b *BodyWriter) Write(p []byte) (int, error) {
	if b.pretty != nil {
		return b.pretty.Write(p)
	}
	if len(p) > 0 {
		b.last = p[len(p)-1]
	}
	return b.bw.Write(p)
}

func (b *BodyWriter) WriteString(p string) (int, error) {
	if b.pretty != nil {
		return b.pretty.WriteString(p)
	}
	if len(p) > 0 {
		b.last = p[len(p)-1]
	}
	return b.bw.WriteString(p) // no copy of p: lists are written a piece at a time
}

// Close ends a JSON body, flushes the buffer and the gzip stream.
func (b *BodyWriter) Close() error {
	var err error
	switch {
	case b.pretty != nil:
		_, err = b.bw.Write(Indent(b.pretty.Bytes()))
	case b.json && b.last != '\n':
		err = b.bw.WriteByte('\n')
	}
	if ferr := b.bw.Flush(); err == nil {
		err = ferr
	}
	if b.gz != nil {
		if cerr := b.gz.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

func AcceptsGzip(req *http.Request) bool {
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

// WriteBody answers with a complete body, a JSON one ended or indented
// as StartBody says.
func WriteBody(w http.ResponseWriter, req *http.Request, code int, contentType string, body []byte, gzipThreshold int) {
	bw := StartBody(w, req, code, contentType, len(body), gzipThreshold)
	_, _ = bw.Write(body)
	_ = bw.Close()
}

// WriteRawBody answers with a complete body written as it is (OpenAPI
// documents, which kube-apiserver serves as stored).
func WriteRawBody(w http.ResponseWriter, req *http.Request, code int, contentType string, body []byte, gzipThreshold int) {
	bw := startRaw(w, req, code, contentType, len(body), gzipThreshold)
	_, _ = bw.Write(body)
	_ = bw.Close()
}
