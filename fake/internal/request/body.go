package request

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/kubewire/kubewire/api/builtin"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"

	"github.com/kubewire/kubewire/codec"
)

// maxBodyBytes is kube-apiserver's request body limit.
const maxBodyBytes = 3 << 20

// ReadBody reads a request body up to the limit.
func ReadBody(req *http.Request) ([]byte, *apierr.Error) {
	if req.Body == nil { // a request served in memory, without a body
		return nil, nil
	}
	// A body of known length is read into a buffer of its size, not one
	// that grows (and is copied) as it is read.
	buf := bytes.NewBuffer(make([]byte, 0, min(max(req.ContentLength, 0), maxBodyBytes)+1))
	_, err := buf.ReadFrom(io.LimitReader(req.Body, maxBodyBytes+1))
	b := buf.Bytes()
	if err != nil {
		return nil, apierr.BadRequest("read request body: " + err.Error())
	}
	if len(b) > maxBodyBytes {
		return nil, apierr.New(http.StatusRequestEntityTooLarge, "RequestEntityTooLarge", "the request is too large", nil)
	}
	return b, nil
}

// Validation is the fieldValidation level of a write.
type Validation int

const (
	ValidationWarn Validation = iota
	validationIgnore
	ValidationStrict
)

// BodyType returns the media type of a create or update body: JSON when
// unset; JSON, YAML or, for built-in kinds, protobuf (415 otherwise).
func BodyType(req *http.Request, r *object.Resource, refuseProtobuf bool) (codec.MediaType, *apierr.Error) {
	ct := req.Header.Get("Content-Type")
	mt, err := codec.ParseMediaType(ct)
	if ct == "" {
		mt, err = codec.ParseMediaType(codec.MediaTypeJSON)
	}
	if err != nil || !(mt.IsJSON() || mt.IsYAML() || (mt.IsProtobuf() && !r.Custom)) {
		return mt, apierr.UnsupportedMediaTypes(CBORGate(req))
	}
	if mt.IsProtobuf() && refuseProtobuf {
		return mt, apierr.UnsupportedMediaTypeJSON(ct)
	}
	return mt, nil
}

// DecodeDraft decodes a create or update body of media type mt and
// applies the fieldValidation level: unknown fields are a 400 under
// Strict and a Warning header under Warn. served reports whether the
// server serves a resource (custom resources naming a version their
// definition does not serve have only unknown fields). The draft is not
// defaulted.
func DecodeDraft(w http.ResponseWriter, body []byte, mt codec.MediaType, r *object.Resource, level Validation, served func(group, version, resource string) bool) (*object.Draft, *apierr.Error) {
	var d *object.Draft
	var unknown, dups, yamlKeys []string
	var err error
	switch {
	case mt.IsProtobuf():
		if _, eerr := codec.DecodeEnvelope(body); eerr != nil && bytes.HasPrefix(body, []byte(codec.ProtobufMagic)) {
			// kube-apiserver cannot even read the envelope's kind.
			return nil, apierr.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): unexpected EOF (%s)", r.Kind.Kind, apierr.Summarize(body)))
		}
		d, err = r.DecodeProtobuf(body)
	case mt.IsYAML():
		j, yerr := codec.YAMLToJSON(body)
		if yerr != nil {
			msg := strings.TrimPrefix(YAMLError(yerr), "error converting YAML to JSON: ")
			return nil, apierr.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %s (%s)", r.Kind.Kind, msg, apierr.Summarize(body)))
		}
		d, unknown, err = r.DecodeJSON(j)
		yamlKeys = YAMLDuplicateKeys(body)
	default:
		if aerr := checkSyntax(r, body); aerr != nil {
			return nil, aerr
		}
		d, unknown, err = r.DecodeJSON(body)
		dups = DuplicateFieldPaths(body)
	}
	if ae, ok := err.(*apierr.Error); ok {
		return nil, ae
	}
	if err == nil && !r.Custom && !mt.IsProtobuf() {
		err = timeParseError(d, body, mt.IsYAML())
	}
	if err != nil {
		return nil, CannotHandle(r, err)
	}
	if r.Custom {
		unknown = append(unknown, unservedVersionFields(r, d, body, served)...)
	}
	// A custom resource's body is checked for duplicates before its
	// unknown fields are pruned; a built-in kind's strict decoder meets
	// both in document order.
	problems := append(QuoteDuplicates(dups), QuoteUnknown(unknown)...)
	if !r.Custom && len(dups) > 0 && len(unknown) > 0 {
		problems = inDocumentOrder(body, unknown, dups)
	}
	if len(problems)+len(yamlKeys) > 0 {
		switch level {
		case ValidationStrict:
			return nil, CannotHandle(r, fmt.Errorf("strict decoding error: %s", strictProblems(yamlKeys, problems)))
		case ValidationWarn:
			for _, u := range append(yamlKeys, problems...) {
				w.Header().Add("Warning", "299 - "+strconv.Quote(u))
			}
		}
	}
	if aerr := CheckTypeMeta(d); aerr != nil {
		return nil, aerr
	}
	return d, nil
}

func QuoteDuplicates(fields []string) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = fmt.Sprintf("duplicate field %q", f)
	}
	return out
}

func QuoteUnknown(fields []string) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = fmt.Sprintf("unknown field %q", f)
	}
	return out
}

// checkSyntax is the 400 of a JSON body kube-apiserver cannot even read
// the kind of, naming the kind expected and showing the body's start.
func checkSyntax(r *object.Resource, body []byte) *apierr.Error {
	var v any
	err := json.Unmarshal(body, &v)
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		return nil
	}
	return apierr.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): couldn't get version/kind; json parse error: %v (%s)", r.Kind.Kind, err, apierr.Summarize(body)))
}

// CannotHandle is the 400 for a body that does not decode as the kind.
func CannotHandle(r *object.Resource, err error) *apierr.Error {
	msg := strings.TrimPrefix(err.Error(), object.ErrBadBody.Error()+": ")
	return apierr.BadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", r.Kind.Kind, r.Kind.Version, r.Kind.Kind, msg))
}

// CheckTypeMeta refuses a body whose kind or apiVersion names another kind.
func CheckTypeMeta(d *object.Draft) *apierr.Error {
	var kind, apiVersion string
	if d.Custom != nil {
		kind, _ = d.Custom["kind"].(string)
		apiVersion, _ = d.Custom["apiVersion"].(string)
	} else if tm, ok := d.Typed.(interface {
		GetKind() string
		GetAPIVersion() string
	}); ok {
		kind, apiVersion = tm.GetKind(), tm.GetAPIVersion()
	}
	k := d.Res.Kind
	if d.Custom != nil || (kind == "" || kind == k.Kind) && (apiVersion == "" || apiVersion == k.APIVersion()) {
		if kind != "" && kind != k.Kind && d.Custom != nil && (apiVersion == "" || apiVersion == k.APIVersion()) {
			// A custom resource's kind is checked by its validation.
			return apierr.Invalid(k.Group, kind, d.Meta.Name, apierr.Cause{Type: "FieldValueInvalid", Field: "kind", Message: fmt.Sprintf("Invalid value: %q: must be %s", kind, k.Kind)})
		}
		if kind != "" && kind != k.Kind {
			return apierr.BadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: no kind %q is registered for version %q", k.Kind, k.Version, k.Kind, kind, apiVersion))
		}
		if apiVersion != "" && apiVersion != k.APIVersion() {
			return apierr.BadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", apiVersion, k.APIVersion()))
		}
		return nil
	}
	// A built-in body naming another kind or version: kube-apiserver's
	// scheme either does not know it or cannot convert it.
	if kind == "" {
		kind = k.Kind
	}
	if apiVersion == "" {
		apiVersion = k.APIVersion()
	}
	_, version := object.SplitAPIVersion(apiVersion)
	prefix := fmt.Sprintf("%s in version %q cannot be handled as a %s: ", kind, version, k.Kind)
	if _, known := builtin.New(apiVersion, kind); !known {
		return apierr.BadRequest(prefix + fmt.Sprintf("no kind %q is registered for version %q in scheme \"pkg/runtime/scheme.go:111\"", kind, apiVersion))
	}
	return apierr.BadRequest(prefix + fmt.Sprintf("converting (%s.%s) to (%s.%s): unknown conversion", version, kind, internalPackage(k.Group), k.Kind))
}

// internalPackage is the name of the package of a group's internal
// types in kube-apiserver ("core" for the core group, else the group's
// first label).
func internalPackage(group string) string {
	if group == "" {
		return "core"
	}
	first, _, _ := strings.Cut(group, ".")
	return first
}

// unservedVersionFields are the fields kube-apiserver finds unknown in a
// custom resource that names a version of its group the definition does
// not serve: it has no schema for them, so every field but apiVersion,
// kind and metadata is unknown (the request then fails for its version).
func unservedVersionFields(r *object.Resource, d *object.Draft, body []byte, served func(group, version, resource string) bool) []string {
	av, _ := d.Custom["apiVersion"].(string)
	if av == "" || av == r.Kind.APIVersion() {
		return nil
	}
	if g, v := object.SplitAPIVersion(av); g != r.Kind.Group || served(g, v, r.Kind.Resource) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		k, _ := t.(string)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return out
		}
		if k != "apiVersion" && k != "kind" && k != "metadata" {
			out = append(out, k)
		}
	}
	return out
}

// YAMLError is the YAML converter's own message, as kube-apiserver shows
// it ("error converting YAML to JSON: yaml: line 2: ..."), without the
// codec's wrapping.
func YAMLError(err error) string {
	msg := err.Error()
	var de *codec.DecodeError
	if errors.As(err, &de) && de.Err != nil {
		msg = de.Err.Error()
	}
	const prefix = "error converting YAML to JSON: "
	if !strings.HasPrefix(msg, prefix) {
		msg = prefix + msg
	}
	return msg
}

// timeParseError checks a built-in body's timestamps as kube-apiserver
// parses them (object.TimeParseError).
func timeParseError(d *object.Draft, body []byte, isYAML bool) error {
	if isYAML {
		j, err := codec.YAMLToJSON(body)
		if err != nil {
			return nil
		}
		body = j
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil
	}
	return object.TimeParseError(reflect.TypeOf(d.Typed).Elem(), v)
}
