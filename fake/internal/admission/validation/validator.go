package validation

import (
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Validator checks objects about to be stored.
type Validator struct {
	patterns *metaPatterns
	kinds    map[string]kindRule
	// Rules evaluates custom resources' x-kubernetes-validations; nil
	// leaves them unevaluated.
	Rules RuleEvaluator
}

// New returns a Validator; rules evaluates custom resources'
// x-kubernetes-validations (nil leaves them unevaluated).
func New(rules RuleEvaluator) *Validator {
	return &Validator{patterns: newPatterns(), kinds: kindRules(), Rules: rules}
}

// RuleEvaluator evaluates CEL rules (see the fake's RuleEvaluator).
type RuleEvaluator interface {
	Check(rule string, self, oldSelf any) (bool, error)
	Message(expr string, self, oldSelf any) (string, error)
	// Optional is oldSelf for a rule with optionalOldSelf: CEL's
	// optional of value, or optional.none() when not present.
	Optional(value any, present bool) any
}

// Validate checks an object about to be stored (old is the stored one,
// nil for a create): metadata as kube-apiserver checks every object's,
// what the fake checks of built-in kinds (see kindRules), and
// CustomResourceDefinitions and custom resources against their rules.
func (v *Validator) Validate(d, old *object.Draft) *apierr.Error {
	return v.invalid(d, v.causes(d, old))
}

// invalid is the 422 of causes, or nil when there are none.
func (v *Validator) invalid(d *object.Draft, causes []apierr.Cause) *apierr.Error {
	if len(causes) > 0 {
		return apierr.Invalid(d.Res.InternalGroup(), d.Res.Kind.Kind, d.Meta.Name, causes...)
	}
	return nil
}

// causes are Validate's field errors.
func (v *Validator) causes(d, old *object.Draft) []apierr.Cause {
	return v.causesOf(d, old, false)
}

// causesOf are the field errors of a write, of a status write when
// status is set (old is then not nil).
func (v *Validator) causesOf(d, old *object.Draft, status bool) []apierr.Cause {
	var oldMeta *metav1.ObjectMeta
	if old != nil {
		oldMeta = old.Meta
	}
	var causes []apierr.Cause
	switch rule, ok := v.kinds[d.Res.Key()]; {
	case d.Custom != nil:
		causes = v.metadataCauses(d.Res, d.Meta, oldMeta)
		causes = append(causes, validateCustom(d.Res, d, old, v.Rules, status)...)
	case d.Res.IsCRD():
		causes = v.metadataCauses(d.Res, d.Meta, oldMeta)
		causes = append(causes, validateCRD(d.Typed.(*apiextensionsv1.CustomResourceDefinition))...)
	case ok:
		causes = v.builtin(rule, d, old)
	default:
		causes = v.metadataCauses(d.Res, d.Meta, oldMeta)
		if old != nil {
			causes = append(causes, immutableMeta(d.Meta, old.Meta)...)
		}
	}
	return causes
}
