package validation

import (
	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// labelSelector checks a label selector as kube-apiserver does.
func (v *Validator) labelSelector(s *metav1.LabelSelector, path string, allowInvalidValues bool) errs {
	var e errs
	if s == nil {
		return e
	}
	e.addAll(v.labels(s.MatchLabels, child(path, "matchLabels")))
	for i, r := range s.MatchExpressions {
		p := index(child(path, "matchExpressions"), i)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				e.required(child(p, "values"), "must be specified when `operator` is 'In' or 'NotIn'")
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				e.forbidden(child(p, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
			}
		default:
			e.invalid(child(p, "operator"), string(r.Operator), "not a valid selector operator")
		}
		for _, msg := range v.patterns.labelKeyErrors(r.Key) {
			e.invalid(child(p, "key"), r.Key, msg)
		}
		if !allowInvalidValues {
			for j, val := range r.Values {
				for _, msg := range v.patterns.labelValueErrors(val) {
					e.invalid(index(child(p, "values"), j), val, msg)
				}
			}
		}
	}
	return e
}

// positiveIntOrPercent is kube-apiserver's ValidatePositiveIntOrPercent.
func positiveIntOrPercent(x intstr.IntOrString, path string) errs {
	var e errs
	if x.Type == intstr.String {
		if !percent.MatchString(x.StrVal) {
			e.invalid(path, x, regexError("a valid percent string must be a numeric string followed by an ending '%'", "[0-9]+%", "1%", "93%"))
		}
		return e
	}
	if x.IntVal < 0 {
		e.invalid(path, int64(x.IntVal), "must be greater than or equal to 0")
	}
	return e
}

// notMoreThan100Percent is kube-apiserver's IsNotMoreThan100Percent.
func notMoreThan100Percent(x intstr.IntOrString, path string) errs {
	var e errs
	if n, ok := percentValue(x); ok && n > 100 {
		e.invalid(path, x, "must not be greater than 100%")
	}
	return e
}

func percentValue(x intstr.IntOrString) (int, bool) {
	if x.Type != intstr.String || !percent.MatchString(x.StrVal) {
		return 0, false
	}
	n := 0
	for _, c := range x.StrVal[:len(x.StrVal)-1] {
		n = n*10 + int(c-'0')
	}
	return n, true
}
