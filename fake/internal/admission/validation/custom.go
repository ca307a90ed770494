package validation

import (
	"fmt"
	"math"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/schema"
)

// Custom resources are decoded, pruned, defaulted and validated the way
// kube-apiserver treats them: the body must name its kind and apiVersion;
// fields the structural schema does not know are removed (reported as
// unknown fields, a Warning or, with fieldValidation=Strict, a 400);
// schema defaults are applied; and the object is validated against the
// schema, the scale subresource's paths and the list types before it is
// stored.

// validateCustom validates a custom resource about to be stored, in
// kube-apiserver's order: the schema, the scale subresource's replicas
// and selector, the list types, then x-kubernetes-validations rules when
// ev evaluates them and the object has no blocking error (else it gets
// kube-apiserver's "rules were not checked" error). old is the object
// before an update, nil for a create.
//
// A status write (status set, old not nil) is validated as
// kube-apiserver's status strategy does: the status alone against its
// schema (the errors' texts name fields from the status: "replicas in
// body"), the scale subresource's status replicas and selector, the list
// types only when the old object broke none, no embedded resources, then
// the rules.
func validateCustom(r *object.Resource, d, old *object.Draft, ev RuleEvaluator, status bool) []apierr.Cause {
	if r.CRD == nil {
		return nil
	}
	sch := r.CRD.Schema
	var errs []schema.FieldError
	if status {
		errs = sch.ValidateProperty(d.Custom, "status")
		errs = append(errs, scaleErrors(r.CRD, d.Custom, true)...)
		if lists := sch.ValidateListTypes(d.Custom); len(lists) > 0 && len(sch.ValidateListTypes(old.Custom)) == 0 {
			errs = append(errs, lists...)
		}
	} else {
		errs = sch.Validate(d.Custom)
		errs = append(errs, scaleErrors(r.CRD, d.Custom, false)...)
		errs = append(errs, sch.ValidateListTypes(d.Custom)...)
		errs = append(errs, sch.ValidateEmbedded(d.Custom)...)
	}
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
				prev = old.Custom
			}
			errs = append(errs, checkRules(ev, sch, d.Custom, prev, old != nil, "")...)
		}
	}
	causes := make([]apierr.Cause, len(errs))
	for i, e := range errs {
		causes[i] = causeOf(e)
	}
	return causes
}

// scaleErrors checks the replicas and selector fields the scale
// subresource reads; statusOnly leaves out the spec's replicas, as a
// status write does.
func scaleErrors(c *object.CRDVersion, obj map[string]any, statusOnly bool) []schema.FieldError {
	sc := c.Scale
	if sc == nil {
		return nil
	}
	var errs []schema.FieldError
	replicas := func(path string) {
		v, found, err := NestedPath(obj, path)
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
	if !statusOnly {
		replicas(sc.SpecReplicasPath)
	}
	replicas(sc.StatusReplicasPath)
	if sc.LabelSelectorPath != nil {
		path := *sc.LabelSelectorPath
		if v, found, _ := NestedPath(obj, path); found {
			if _, ok := v.(string); !ok {
				errs = append(errs, schema.FieldError{Type: schema.Invalid, Field: path, BadValue: "",
					Detail: fmt.Sprintf("%s accessor error: %v is of the type %T, expected string", dotted(path), v, v)})
			}
		}
	}
	return errs
}

func dotted(path string) string { return "." + strings.TrimPrefix(path, ".") }

// NestedPath reads a value at a ".a.b" path of a decoded object.
func NestedPath(obj map[string]any, path string) (any, bool, error) {
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
