package fake

import (
	"fmt"
	"math"
	"strings"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/fake/internal/schema"
)

// Custom resources are decoded, pruned, defaulted and validated the way
// kube-apiserver treats them: the body must name its kind and apiVersion;
// fields the structural schema does not know are removed (reported as
// unknown fields, a Warning or, with fieldValidation=Strict, a 400);
// schema defaults are applied; and the object is validated against the
// schema, the scale subresource's paths and the list types before it is
// stored.

// requireTypeMeta refuses a custom resource body without kind or
// apiVersion, with kube-apiserver's messages.
func (r *resource) requireTypeMeta(obj map[string]any, body []byte) *apiError {
	if kind, _ := obj["kind"].(string); kind == "" {
		return errBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): Object 'Kind' is missing in '%s' (%s)", r.kind.Kind, body, summarize(body)))
	}
	if apiVersion, _ := obj["apiVersion"].(string); apiVersion == "" {
		return errBadRequest(fmt.Sprintf("the API version in the data () does not match the expected API version (%s)", r.kind.APIVersion()))
	}
	return nil
}

// decodeCustomDraft decodes a custom resource's JSON and prunes it,
// returning the paths of the fields it removed.
func (r *resource) decodeCustomDraft(body []byte) (*draft, []string, error) {
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(body); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", errBadBody, err)
	}
	if u.Object == nil {
		u.Object = map[string]any{}
	}
	if aerr := r.requireTypeMeta(u.Object, body); aerr != nil {
		return nil, nil, aerr
	}
	var unknown []string
	if r.crd != nil {
		unknown = r.crd.schema.Prune(u.Object)
	}
	d, err := r.customDraft(u.Object)
	return d, unknown, err
}

// validateCustom validates a custom resource about to be stored, in
// kube-apiserver's order: the schema, the scale subresource's replicas
// and selector, the list types, then x-kubernetes-validations rules when
// ev evaluates them and the object has no blocking error (else it gets
// kube-apiserver's "rules were not checked" error). old is the object
// before an update, nil for a create.
func (r *resource) validateCustom(d, old *draft, ev RuleEvaluator) []fieldCause {
	if r.crd == nil {
		return nil
	}
	sch := r.crd.schema
	errs := sch.Validate(d.custom)
	errs = append(errs, scaleErrors(r.crd, d.custom)...)
	errs = append(errs, sch.ValidateListTypes(d.custom)...)
	errs = append(errs, sch.ValidateEmbedded(d.custom)...)
	if sch.HasRules() {
		blocked := false
		for _, e := range errs {
			if e.Blocking() {
				blocked = true
				errs = append(errs, schema.RulesNotChecked)
				break
			}
		}
		if !blocked && ev != nil {
			var prev any
			if old != nil {
				prev = old.custom
			}
			errs = append(errs, checkRules(ev, sch, d.custom, prev, old != nil, "")...)
		}
	}
	causes := make([]fieldCause, len(errs))
	for i, e := range errs {
		causes[i] = causeOf(e)
	}
	return causes
}

// scaleErrors checks the replicas and selector fields the scale
// subresource reads.
func scaleErrors(c *crdVersion, obj map[string]any) []schema.FieldError {
	sc := c.scale
	if sc == nil {
		return nil
	}
	var errs []schema.FieldError
	replicas := func(path string) {
		v, found, err := nestedPath(obj, path)
		switch {
		case err != nil:
			errs = append(errs, schema.FieldError{Type: schema.Invalid, Field: path, BadValue: int64(0), Detail: err.Error()})
		case !found:
		default:
			n, ok := v.(int64)
			switch {
			case !ok:
				errs = append(errs, schema.FieldError{Type: schema.Invalid, Field: path, BadValue: int64(0),
					Detail: fmt.Sprintf("%s accessor error: %v is of the type %T, expected int64", dotted(path), v, v)})
			case n < 0:
				errs = append(errs, schema.FieldError{Type: schema.Invalid, Field: path, BadValue: n, Detail: "should be a non-negative integer"})
			case n > math.MaxInt32:
				errs = append(errs, schema.FieldError{Type: schema.Invalid, Field: path, BadValue: n, Detail: fmt.Sprintf("should be less than or equal to %v", math.MaxInt32)})
			}
		}
	}
	replicas(sc.SpecReplicasPath)
	replicas(sc.StatusReplicasPath)
	if sc.LabelSelectorPath != nil {
		path := *sc.LabelSelectorPath
		if v, found, _ := nestedPath(obj, path); found {
			if _, ok := v.(string); !ok {
				errs = append(errs, schema.FieldError{Type: schema.Invalid, Field: path, BadValue: "",
					Detail: fmt.Sprintf("%s accessor error: %v is of the type %T, expected string", dotted(path), v, v)})
			}
		}
	}
	return errs
}

func dotted(path string) string { return "." + strings.TrimPrefix(path, ".") }

// nestedPath reads a value at a ".a.b" path of a decoded object.
func nestedPath(obj map[string]any, path string) (any, bool, error) {
	fields := strings.Split(strings.TrimPrefix(path, "."), ".")
	var cur any = obj
	for i, f := range fields {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false, fmt.Errorf("%s accessor error: %v is of the type %T, expected map[string]interface{}", dotted(strings.Join(fields[:i], ".")), cur, cur)
		}
		if cur, ok = m[f]; !ok {
			return nil, false, nil
		}
	}
	return cur, true, nil
}
