package fake

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/kubewire/kubewire/api/builtin"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"

	"github.com/kubewire/kubewire/codec"
)

// maxBodyBytes is kube-apiserver's request body limit.
const maxBodyBytes = 3 << 20

// readBody reads a request body up to the limit.
func readBody(req *http.Request) ([]byte, *apierr.Error) {
	if req.Body == nil { // a request served in memory, without a body
		return nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(req.Body, maxBodyBytes+1))
	if err != nil {
		return nil, apierr.BadRequest("read request body: " + err.Error())
	}
	if len(b) > maxBodyBytes {
		return nil, apierr.New(http.StatusRequestEntityTooLarge, "RequestEntityTooLarge", "the request is too large", nil)
	}
	return b, nil
}

// validation is the fieldValidation level of a write.
type validation int

const (
	validationWarn validation = iota
	validationIgnore
	validationStrict
)

// bodyType returns the media type of a create or update body: JSON when
// unset; JSON, YAML or, for built-in kinds, protobuf (415 otherwise).
func (s *Server) bodyType(req *http.Request, r *object.Resource) (codec.MediaType, *apierr.Error) {
	ct := req.Header.Get("Content-Type")
	mt, err := codec.ParseMediaType(ct)
	if ct == "" {
		mt, err = codec.ParseMediaType(codec.MediaTypeJSON)
	}
	if err != nil || !(mt.IsJSON() || mt.IsYAML() || (mt.IsProtobuf() && !r.Custom)) {
		return mt, apierr.UnsupportedMediaType(ct)
	}
	if mt.IsProtobuf() && s.faults.refuseProtobufBodies() {
		return mt, apierr.UnsupportedMediaTypeJSON(ct)
	}
	return mt, nil
}

// decodeDraft decodes a create or update body of media type mt and
// applies the fieldValidation level: unknown fields are a 400 under
// Strict and a Warning header under Warn.
func (s *Server) decodeDraft(w http.ResponseWriter, body []byte, mt codec.MediaType, r *object.Resource, level validation) (*object.Draft, *apierr.Error) {
	var d *object.Draft
	var unknown, dups []string
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
			msg := strings.TrimPrefix(yamlError(yerr), "error converting YAML to JSON: ")
			return nil, apierr.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %s (%s)", r.Kind.Kind, msg, apierr.Summarize(body)))
		}
		d, unknown, err = r.DecodeJSON(j)
	default:
		if aerr := checkSyntax(r, body); aerr != nil {
			return nil, aerr
		}
		d, unknown, err = r.DecodeJSON(body)
		dups = duplicateFieldPaths(body)
	}
	if ae, ok := err.(*apierr.Error); ok {
		return nil, ae
	}
	if err != nil {
		return nil, cannotHandle(r, err)
	}
	if r.Custom {
		unknown = append(unknown, s.unservedVersionFields(r, d, body)...)
	}
	if problems := append(quoteUnknown(unknown), quoteDuplicates(dups)...); len(problems) > 0 {
		switch level {
		case validationStrict:
			return nil, cannotHandle(r, fmt.Errorf("strict decoding error: %s", strings.Join(problems, ", ")))
		case validationWarn:
			for _, u := range problems {
				w.Header().Add("Warning", "299 - "+strconv.Quote(u))
			}
		}
	}
	if aerr := checkTypeMeta(d); aerr != nil {
		return nil, aerr
	}
	applyDefaults(d)
	return d, nil
}

func quoteDuplicates(fields []string) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = fmt.Sprintf("duplicate field %q", f)
	}
	return out
}

func quoteUnknown(fields []string) []string {
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

// cannotHandle is the 400 for a body that does not decode as the kind.
func cannotHandle(r *object.Resource, err error) *apierr.Error {
	msg := strings.TrimPrefix(err.Error(), object.ErrBadBody.Error()+": ")
	return apierr.BadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", r.Kind.Kind, r.Kind.Version, r.Kind.Kind, msg))
}

// checkTypeMeta refuses a body whose kind or apiVersion names another kind.
func checkTypeMeta(d *object.Draft) *apierr.Error {
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

var dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// validateName checks metadata.name as an RFC 1123 subdomain.
func validateName(d *object.Draft) *apierr.Error {
	name := d.Meta.Name
	k := d.Res.Kind
	if name == "" {
		return apierr.Invalid(k.Group, k.Kind, name, apierr.Cause{Type: "FieldValueRequired", Field: "metadata.name", Message: "Required value: name or generateName is required"})
	}
	if !d.Res.Custom && !d.Res.IsCRD() {
		return nil // checked by validate, with the kind's rule
	}
	if len(name) > 253 || !dnsSubdomain.MatchString(name) {
		msg := fmt.Sprintf("Invalid value: %q: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')", name)
		return apierr.Invalid(k.Group, k.Kind, name, apierr.Cause{Type: "FieldValueInvalid", Field: "metadata.name", Message: msg})
	}
	return nil
}

// unservedVersionFields are the fields kube-apiserver finds unknown in a
// custom resource that names a version of its group the definition does
// not serve: it has no schema for them, so every field but apiVersion,
// kind and metadata is unknown (the request then fails for its version).
func (s *Server) unservedVersionFields(r *object.Resource, d *object.Draft, body []byte) []string {
	av, _ := d.Custom["apiVersion"].(string)
	if av == "" || av == r.Kind.APIVersion() {
		return nil
	}
	if g, v := object.SplitAPIVersion(av); g != r.Kind.Group || s.lookup(g, v, r.Kind.Resource) != nil {
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
