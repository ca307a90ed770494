// Package conversion decides how kube-apiserver converts between the
// versions of a custom resource: a kind whose versions' Go types convert
// through a hub (package webhook's hub-and-spoke, as controller-runtime
// has it) gets conversion strategy Webhook, calling the given Service at
// /convert; other kinds keep strategy None.
//
// The hub is the version whose type has a Hub() method; every other
// version must have ConvertTo(*Hub) error and ConvertFrom(*Hub) error.
// The caBundle is left out, for cert-manager's injector or
// webhook.InjectCABundle.
package conversion

import (
	"fmt"
	"go/types"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/internal/codegen/kinds"
)

// Path is where the conversion webhook is served (webhook.ConvertPath).
const Path = "/convert"

// Apply sets the conversion of c, the definition of versions (of one
// kind), when one of them is a hub: strategy Webhook through svc. It
// fails when the hub is ambiguous or a version cannot convert through
// it, and leaves c alone when no version is a hub and none converts.
func Apply(c *apiextv1.CustomResourceDefinition, versions []*kinds.Kind, svc apiextv1.ServiceReference) error {
	var hub *kinds.Kind
	for _, k := range versions {
		if isHub(k.Type) {
			if hub != nil {
				return fmt.Errorf("%s: versions %s and %s both have a Hub method: mark one hub", c.Name, hub.Version, k.Version)
			}
			hub = k
		}
	}
	if hub == nil {
		for _, k := range versions {
			if !hasMethod(k.Type, "ConvertTo") {
				continue
			}
			if h := hubOutside(k.Type); h != nil {
				return fmt.Errorf("%s: version %s converts through the hub %s.%s, whose package %s is not in this run: generate all versions of the group in one run, as in kubewire-gen ./api/...",
					c.Name, k.Version, h.Pkg().Name(), h.Name(), h.Pkg().Path())
			}
			return fmt.Errorf("%s: version %s has ConvertTo but no version is the hub: give the hub's type a Hub() method, and generate all versions of the group in one run", c.Name, k.Version)
		}
		return nil
	}
	hubPtr := types.NewPointer(hub.Type.Type())
	for _, k := range versions {
		if k == hub {
			continue
		}
		for _, m := range []string{"ConvertTo", "ConvertFrom"} {
			if !converts(k.Type, m, hubPtr) {
				return fmt.Errorf("%s: version %s (%s) converts through the hub %s: it needs a method %s(*%s.%s) error",
					c.Name, k.Version, k.Type.Pkg().Path(), hub.Version, m, hub.Type.Pkg().Name(), hub.Type.Name())
			}
		}
	}
	if len(versions) < 2 {
		return nil // one version: nothing to convert
	}
	path := Path
	svc.Path = &path
	c.Spec.Conversion = &apiextv1.CustomResourceConversion{
		Strategy: "Webhook",
		Webhook: &apiextv1.WebhookConversion{
			ClientConfig:             &apiextv1.WebhookClientConfig{Service: &svc},
			ConversionReviewVersions: []string{"v1"},
		},
	}
	return nil
}

// isHub reports whether *tn has a method Hub().
func isHub(tn *types.TypeName) bool {
	f := method(tn, "Hub")
	if f == nil {
		return false
	}
	sig := f.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 0
}

// hubOutside returns the hub that *tn's ConvertTo names, when that
// parameter is a pointer to a type with a Hub() method: the hub exists
// but its package was not among the versions given.
func hubOutside(tn *types.TypeName) *types.TypeName {
	sig := method(tn, "ConvertTo").Type().(*types.Signature)
	if sig.Params().Len() != 1 {
		return nil
	}
	p, ok := sig.Params().At(0).Type().(*types.Pointer)
	if !ok {
		return nil
	}
	n, ok := p.Elem().(*types.Named)
	if !ok || n.Obj().Pkg() == nil || !isHub(n.Obj()) {
		return nil
	}
	return n.Obj()
}

func hasMethod(tn *types.TypeName, name string) bool { return method(tn, name) != nil }

func method(tn *types.TypeName, name string) *types.Func {
	ms := types.NewMethodSet(types.NewPointer(tn.Type()))
	for i := range ms.Len() {
		if f, ok := ms.At(i).Obj().(*types.Func); ok && f.Name() == name {
			return f
		}
	}
	return nil
}

// converts reports whether *tn has name(hub) error.
func converts(tn *types.TypeName, name string, hub types.Type) bool {
	f := method(tn, name)
	if f == nil {
		return false
	}
	sig := f.Type().(*types.Signature)
	return sig.Params().Len() == 1 && types.Identical(sig.Params().At(0).Type(), hub) &&
		sig.Results().Len() == 1 && sig.Results().At(0).Type().String() == "error"
}
