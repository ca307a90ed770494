package main

import (
	"fmt"
	"path/filepath"
	"strings"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/internal/codegen/conversion"
	"github.com/kubewire/kubewire/internal/codegen/crd"
	"github.com/kubewire/kubewire/internal/codegen/kinds"
	"github.com/kubewire/kubewire/internal/codegen/load"
	"github.com/kubewire/kubewire/internal/codegen/webhookcfg"
)

// webhookFile is the name of the webhook configurations' manifest, as
// controller-gen names it.
const webhookFile = "manifests.yaml"

// service is -webhook-service as a Service (namespace/name).
func (o options) service() (webhookcfg.Service, error) {
	if o.webhookService == "" {
		return webhookcfg.DefaultService, nil
	}
	ns, name, ok := strings.Cut(o.webhookService, "/")
	if !ok || ns == "" || name == "" || strings.Contains(name, "/") {
		return webhookcfg.Service{}, fmt.Errorf("-webhook-service %q: want namespace/name", o.webhookService)
	}
	return webhookcfg.Service{Namespace: ns, Name: name}, nil
}

// webhookManifests reads the webhook markers of every package and
// returns the manifest to write (by path; none without markers) and the
// packages that hold webhook markers but no kinds: packages of webhook
// code, which get no generated types file.
func webhookManifests(o options, l *load.Loader, pkgs []*load.Package, apis []*kinds.Package, svc webhookcfg.Service) (map[string][]byte, map[string]bool, error) {
	var m webhookcfg.Markers
	hookOnly := map[string]bool{}
	for i, p := range pkgs {
		found, err := m.Collect(l.Fset, p.Files)
		if err != nil {
			return nil, nil, err
		}
		if found && len(apis[i].Kinds) == 0 {
			hookOnly[p.Path] = true
		}
	}
	if m.Empty() {
		return nil, hookOnly, nil
	}
	y, err := m.Manifests(svc, "# "+strings.TrimPrefix(header, "// "))
	if err != nil {
		return nil, nil, err
	}
	dir := o.webhookDir
	switch {
	case dir == "" && pkgs[0].Module.Dir == "":
		return nil, nil, fmt.Errorf("package %s is in no module: set -webhook-dir", pkgs[0].Path)
	case dir == "":
		dir = filepath.Join(pkgs[0].Module.Dir, "config", "webhook")
	case !filepath.IsAbs(dir) && o.dir != "":
		dir = filepath.Join(o.dir, dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	return map[string][]byte{filepath.Join(abs, webhookFile): y}, hookOnly, nil
}

// conversionOf gives a definition conversion strategy Webhook when its
// versions convert through a hub.
func conversionOf(c *apiextv1.CustomResourceDefinition, versions []crd.Version, svc webhookcfg.Service) error {
	ks := make([]*kinds.Kind, len(versions))
	for i, v := range versions {
		ks[i] = v.Kind
	}
	return conversion.Apply(c, ks, apiextv1.ServiceReference{Namespace: svc.Namespace, Name: svc.Name})
}
