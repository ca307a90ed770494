package validation

import (
	"encoding/json"
	"reflect"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// The core API group's kinds, as pkg/apis/core/validation checks them.

const maxSecretSize = 1 << 20

func coreKinds(rules map[string]kindRule) {
	rules["/configmaps"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs { return v.configMap(d.Typed.(*corev1.ConfigMap)) },
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*corev1.ConfigMap), old.Typed.(*corev1.ConfigMap)
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			if o.Immutable != nil && *o.Immutable {
				if n.Immutable == nil || !*n.Immutable {
					e.forbidden("immutable", "field is immutable when `immutable` is set")
				}
				if !reflect.DeepEqual(emptyNil(n.Data), emptyNil(o.Data)) {
					e.forbidden("data", "field is immutable when `immutable` is set")
				}
				if !reflect.DeepEqual(emptyNilBytes(n.BinaryData), emptyNilBytes(o.BinaryData)) {
					e.forbidden("binaryData", "field is immutable when `immutable` is set")
				}
			}
			e.addAll(v.configMap(n))
			return e
		},
	}
	rules["/secrets"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs { return v.secret(d.Typed.(*corev1.Secret)) },
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*corev1.Secret), old.Typed.(*corev1.Secret)
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			if n.Type != o.Type {
				e.invalid("type", string(n.Type), "field is immutable")
			}
			if o.Immutable != nil && *o.Immutable {
				if n.Immutable == nil || !*n.Immutable {
					e.forbidden("immutable", "field is immutable when `immutable` is set")
				}
				if !reflect.DeepEqual(emptyNilBytes(n.Data), emptyNilBytes(o.Data)) {
					e.forbidden("data", "field is immutable when `immutable` is set")
				}
			}
			e.addAll(v.secret(n))
			return e
		},
	}
	rules["/serviceaccounts"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs { return v.objectMeta(d.Meta, true, subdomainName, true) },
		update: func(v *Validator, d, old *object.Draft) errs {
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(v.objectMeta(d.Meta, true, subdomainName, true))
			return e
		},
	}
}

func emptyNil(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

func emptyNilBytes(m map[string][]byte) map[string][]byte {
	if len(m) == 0 {
		return nil
	}
	return m
}

func (v *Validator) configMap(c *corev1.ConfigMap) errs {
	e := v.objectMeta(&c.ObjectMeta, true, subdomainName, true)
	size := 0
	for _, k := range sortedKeys(c.Data) {
		for _, msg := range configMapKeyErrors(k) {
			e.invalid(key("data", k), k, msg)
		}
		if _, dup := c.BinaryData[k]; dup {
			e.invalid(key("data", k), k, "duplicate of key present in binaryData")
		}
		size += len(c.Data[k])
	}
	for _, k := range sortedKeys(c.BinaryData) {
		for _, msg := range configMapKeyErrors(k) {
			e.invalid(key("binaryData", k), k, msg)
		}
		size += len(c.BinaryData[k])
	}
	if size > maxSecretSize {
		e.tooLong("", maxSecretSize)
	}
	return e
}

func (v *Validator) secret(s *corev1.Secret) errs {
	e := v.objectMeta(&s.ObjectMeta, true, subdomainName, true)
	size := 0
	for _, k := range sortedKeys(s.Data) {
		for _, msg := range configMapKeyErrors(k) {
			e.invalid(key("data", k), k, msg)
		}
		size += len(s.Data[k])
	}
	if size > maxSecretSize {
		e.tooLong("data", maxSecretSize)
	}
	requireKey := func(k string) bool {
		if _, ok := s.Data[k]; !ok {
			e.required(key("data", k), "")
			return false
		}
		return true
	}
	wellFormed := func(k string) {
		if err := json.Unmarshal(s.Data[k], &map[string]any{}); err != nil {
			e.invalid(key("data", k), "<secret contents redacted>", err.Error())
		}
	}
	switch s.Type {
	case "kubernetes.io/service-account-token":
		if s.Annotations["kubernetes.io/service-account.name"] == "" {
			e.required(key("metadata.annotations", "kubernetes.io/service-account.name"), "")
		}
	case "kubernetes.io/dockercfg":
		if requireKey(".dockercfg") {
			wellFormed(".dockercfg")
		}
	case "kubernetes.io/dockerconfigjson":
		if requireKey(".dockerconfigjson") {
			wellFormed(".dockerconfigjson")
		}
	case "kubernetes.io/basic-auth":
		_, user := s.Data["username"]
		_, pass := s.Data["password"]
		if !user && !pass {
			e.required(key("data", "username"), "")
			e.required(key("data", "password"), "")
		}
	case "kubernetes.io/ssh-auth":
		if len(s.Data["ssh-privatekey"]) == 0 {
			e.required(key("data", "ssh-privatekey"), "")
		}
	case "kubernetes.io/tls":
		requireKey("tls.crt")
		requireKey("tls.key")
	}
	return e
}
