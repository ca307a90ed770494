package validation

import (
	"unicode"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// A container's env and envFrom, as ValidateEnv and ValidateEnvFrom
// check them (RelaxedEnvironmentVariableValidation and EnvFiles are on
// in v1.36): names of printable ASCII but '=', one value source, and
// the config map and secret key selectors and sources. (Field, resource
// and file selectors' own fields are not checked here.)

const envNameMsg = "a valid environment variable name must consist only of printable ASCII characters other than '='"

func envNameErrors(s string) []string {
	for _, r := range s {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) || r == '=' {
			return []string{envNameMsg}
		}
	}
	return nil
}

func (v *Validator) env(vars []corev1.EnvVar, p string) errs {
	var e errs
	for i, ev := range vars {
		ip := index(p, i)
		if ev.Name == "" {
			e.required(child(ip, "name"), "")
		} else {
			for _, msg := range envNameErrors(ev.Name) {
				e.invalid(child(ip, "name"), ev.Name, msg)
			}
		}
		e.addAll(v.envValueFrom(&ev, child(ip, "valueFrom")))
	}
	return e
}

func (v *Validator) envValueFrom(ev *corev1.EnvVar, p string) errs {
	var e errs
	f := ev.ValueFrom
	if f == nil {
		return e
	}
	n := 0
	if f.FieldRef != nil {
		n++
	}
	if f.ResourceFieldRef != nil {
		n++
	}
	if r := f.ConfigMapKeyRef; r != nil {
		n++
		e.addAll(v.keySelector(r.Name, r.Key, child(p, "configMapKeyRef")))
	}
	if r := f.SecretKeyRef; r != nil {
		n++
		e.addAll(v.keySelector(r.Name, r.Key, child(p, "secretKeyRef")))
	}
	if f.FileKeyRef != nil {
		n++
	}
	switch {
	case n == 0:
		e.invalid(p, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`")
	case ev.Value != "":
		e.invalid(p, "", "may not be specified when `value` is not empty")
	case n > 1:
		e.invalid(p, "", "may not have more than one field specified at a time")
	}
	return e
}

// keySelector is validateConfigMapKeySelector and
// validateSecretKeySelector.
func (v *Validator) keySelector(name, key, p string) errs {
	var e errs
	for _, msg := range v.patterns.subdomainErrors(name, "characters") {
		e.invalid(child(p, "name"), name, msg)
	}
	if key == "" {
		e.required(child(p, "key"), "")
	} else {
		for _, msg := range configMapKeyErrors(key) {
			e.invalid(child(p, "key"), key, msg)
		}
	}
	return e
}

func (v *Validator) envFrom(list []corev1.EnvFromSource, p string) errs {
	var e errs
	for i, ev := range list {
		ip := index(p, i)
		if ev.Prefix != "" {
			for _, msg := range envNameErrors(ev.Prefix) {
				e.invalid(child(ip, "prefix"), ev.Prefix, msg)
			}
		}
		n := 0
		if r := ev.ConfigMapRef; r != nil {
			n++
			e.addAll(v.envSourceName(r.Name, child(ip, "configMapRef")))
		}
		if r := ev.SecretRef; r != nil {
			n++
			e.addAll(v.envSourceName(r.Name, child(ip, "secretRef")))
		}
		switch {
		case n == 0:
			e.invalid(p, "", "must specify one of: `configMapRef` or `secretRef`")
		case n > 1:
			e.invalid(p, "", "may not have more than one field specified at a time")
		}
	}
	return e
}

// envSourceName checks a config map or secret source's name as a
// generated name prefix would be (kube-apiserver passes prefix true).
func (v *Validator) envSourceName(name, p string) errs {
	var e errs
	if name == "" {
		e.required(child(p, "name"), "")
		return e
	}
	for _, msg := range subdomainName(v.patterns, name, true) {
		e.invalid(child(p, "name"), name, msg)
	}
	return e
}
