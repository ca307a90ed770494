package patch

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// Patch content types.
const (
	TypeJSON      = "application/json-patch+json"
	TypeMerge     = "application/merge-patch+json"
	TypeStrategic = "application/strategic-merge-patch+json"
	TypeApply     = "application/apply-patch+yaml"
)

// TypeOf returns the patch type of a request, or the 415 of a type
// the resource does not take: built-in resources answer as their router
// does, custom resources name the types they take.
func TypeOf(req *http.Request, r *object.Resource) (string, *apierr.Error) {
	mt, err := codec.ParseMediaType(req.Header.Get("Content-Type"))
	pt := mt.Essence()
	if err == nil && (pt == TypeJSON || pt == TypeMerge || pt == TypeApply || (pt == TypeStrategic && !r.Custom)) {
		return pt, nil
	}
	if r.Custom {
		accepted := "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"
		if request.CBORGate(req) {
			accepted += ", application/apply-patch+cbor"
		}
		return "", apierr.New(http.StatusUnsupportedMediaType, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media types include: "+accepted, nil)
	}
	return "", apierr.New(http.StatusUnsupportedMediaType, "UnsupportedMediaType", "415: Unsupported Media Type", &metav1.StatusDetails{})
}

// Patcher computes the object a patch or a server-side apply makes.
type Patcher struct {
	Builtins *fieldpath.Builtins // shapes and merge keys of the built-in kinds
	// Defaults applies a kind's defaults, as decoding a body does.
	Defaults func(*object.Draft)
	Now      func() metav1.Time // the time of managedFields entries
}

// jsonPatchOp is the shape a JSON patch's operations must have.
type jsonPatchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from"`
	Value json.RawMessage `json:"value"`
}

// Patch applies a JSON, merge or strategic merge patch to old. The
// paths of unknown fields of the result are added to unknown, and under
// Warn validation those of fields a merge patch names twice to
// duplicates (under Strict either is a 422).
func (pr *Patcher) Patch(r *request.Request, old *object.Draft, pt string, body []byte, o request.WriteOptions, unknown, duplicates *[]string) (*object.Draft, error) {
	doc, err := old.ToMap()
	if err != nil {
		return nil, err
	}
	var result any
	var smp map[string]any // a strategic merge patch, as the merge left it
	var patchDups []string // a merge patch's duplicate fields, under Strict
	switch pt {
	case TypeJSON:
		var ops []jsonPatchOp
		if err := json.Unmarshal(body, &ops); err != nil {
			// Named as kube-apiserver's handler names its type.
			msg := strings.ReplaceAll(err.Error(), "[]patch.jsonPatchOp", "[]handlers.jsonPatchOp")
			return nil, apierr.BadRequest("error decoding patch: " + msg)
		}
		if result, err = JSONPatch(doc, body); err != nil {
			return nil, apierr.New(http.StatusUnprocessableEntity, "Invalid", "the server rejected our request due to an error in our request", &metav1.StatusDetails{})
		}
	case TypeMerge:
		var p any
		if err = json.Unmarshal(body, &p); err != nil {
			return nil, apierr.BadRequest("error decoding patch: " + err.Error())
		}
		result = Merge(doc, p)
	default:
		// kube-apiserver reads a strategic merge patch into a map, with
		// integers as int64.
		var probe map[string]any
		if err := json.Unmarshal(body, &probe); err != nil {
			return nil, apierr.BadRequest(err.Error())
		}
		var u unstructured.Unstructured
		if err := u.UnmarshalJSON(body); err != nil {
			return nil, apierr.BadRequest(err.Error())
		}
		smp = u.Object
		if smp == nil {
			smp = map[string]any{}
		}
		k := r.Res.Kind
		s := Schema{Type: reflect.TypeOf(r.Res.NewTyped()).Elem(), Meta: pr.Builtins.PatchMeta(k.APIVersion(), k.Kind)}
		if result, err = Strategic(doc, smp, s); err != nil {
			return nil, strategicError(err)
		}
	}
	if err != nil {
		if ae, ok := err.(*apierr.Error); ok {
			return nil, ae
		}
		return nil, apierr.New(http.StatusUnprocessableEntity, "Invalid", err.Error(), nil)
	}
	if pt == TypeMerge && (o.Level == request.ValidationStrict || o.Level == request.ValidationWarn) {
		// kube-apiserver reads a merge patch strictly before it applies
		// it: its duplicate fields come before the result's unknown ones.
		dups := request.DuplicateFieldPaths(body)
		if o.Level == request.ValidationWarn {
			*duplicates = append(*duplicates, dups...)
		} else {
			patchDups = dups
		}
	}
	d, aerr := pr.decode(r.Res, result, unknown, o.Level, patchDups, func(b []byte, detail string, cause error) *apierr.Error {
		// kube-apiserver names the field "patch" and shows the patched
		// object (JSON and merge patches) or the patch map (strategic
		// merge) as the invalid value, in a 422.
		bad := string(b)
		if pt == TypeJSON {
			if orig, err := old.CompleteJSON(); err == nil {
				if written := jsonPatchedAsWritten(orig, body); written != nil {
					bad = string(written)
				}
			}
		}
		if pt == TypeMerge {
			if orig, err := old.CompleteJSON(); err == nil {
				var p any
				if json.Unmarshal(body, &p) == nil {
					bad = string(mergedAsWritten(orig, p))
				}
			}
		}
		if pt == TypeStrategic {
			bad = fmt.Sprintf("%+v", smp)
			if msg := unstructuredTypeError(cause); msg != "" {
				detail = msg
			}
		}
		return apierr.Invalid("", "", "", apierr.Cause{Type: metav1.CauseTypeFieldValueInvalid, Field: "patch",
			Message: "Invalid value: " + strconv.Quote(bad) + ": " + detail})
	})
	if aerr != nil {
		return nil, aerr
	}
	return d, nil
}

// strategicError is kube-apiserver's answer to a strategic merge patch
// that does not apply: 400 for a malformed directive, 422 for a list of
// lists, 500 (with the error as its message) for the rest.
func strategicError(err error) *apierr.Error {
	switch {
	case errors.Is(err, ErrBadPatchFormatForPrimitiveList), errors.Is(err, ErrBadPatchFormatForRetainKeys), errors.Is(err, ErrBadPatchFormatForSetElementOrderList):
		return apierr.BadRequest(err.Error())
	case errors.Is(err, ErrNoListOfLists):
		return apierr.New(http.StatusUnprocessableEntity, "Invalid", "the server rejected our request due to an error in our request", &metav1.StatusDetails{})
	}
	return apierr.InternalMessage(err.Error())
}

// patchedDraft decodes a patch result as the kind, collecting unknown
// fields.
//
// invalid, when set, makes the error for a result that does not decode
// (or has unknown fields under Strict validation), given the result's
// JSON and the decoding error; nil gives a 400 as for a request body.
//
// dups are the fields the patch named twice, a Strict error with the
// result's unknown fields.
func (pr *Patcher) decode(res *object.Resource, result any, unknown *[]string, level request.Validation, dups []string, invalid func(b []byte, detail string, cause error) *apierr.Error) (*object.Draft, *apierr.Error) {
	b, err := json.Marshal(result)
	if err != nil {
		return nil, apierr.Internal(err)
	}
	fail := func(err error) *apierr.Error {
		if invalid != nil {
			return invalid(b, strings.TrimPrefix(err.Error(), object.ErrBadBody.Error()+": "), err)
		}
		return request.CannotHandle(res, err)
	}
	d, unk, err := res.DecodeJSON(b)
	if ae, ok := err.(*apierr.Error); ok {
		return nil, ae
	}
	if err == nil && !res.Custom {
		err = object.TimeParseError(reflect.TypeOf(d.Typed).Elem(), result)
	}
	if err != nil {
		return nil, fail(err)
	}
	if len(unk)+len(dups) > 0 && level == request.ValidationStrict {
		problems := append(request.QuoteDuplicates(dups), request.QuoteUnknown(unk)...)
		return nil, fail(fmt.Errorf("strict decoding error: %s", strings.Join(problems, ", ")))
	}
	*unknown = append(*unknown, unk...)
	if aerr := request.CheckTypeMeta(d); aerr != nil {
		return nil, aerr
	}
	pr.Defaults(d)
	return d, nil
}

// mergedAsWritten is the result of a JSON merge patch as kube-apiserver
// writes it in messages: the maps the patch changes are written anew
// (keys sorted), the values it does not touch as they were, in the
// order the object's fields were written.
func mergedAsWritten(original []byte, patch any) []byte {
	b, err := json.Marshal(lazyMerge(original, patch))
	if err != nil {
		return nil
	}
	return b
}

func lazyMerge(original json.RawMessage, p any) any {
	pm, ok := p.(map[string]any)
	if !ok {
		return p
	}
	var om map[string]json.RawMessage
	if json.Unmarshal(original, &om) != nil || om == nil {
		return Merge(nil, pm)
	}
	out := make(map[string]any, len(om)+len(pm))
	for k, v := range om {
		out[k] = v
	}
	for k, v := range pm {
		switch {
		case v == nil:
			delete(out, k)
		default:
			if _, isMap := v.(map[string]any); isMap {
				if raw, ok := om[k]; ok && len(raw) > 0 && raw[0] == '{' {
					out[k] = lazyMerge(raw, v)
					continue
				}
			}
			out[k] = Merge(nil, v)
		}
	}
	return out
}
