// Package webhookcfg turns controller-gen's webhook markers into the
// admissionregistration.k8s.io/v1 Mutating- and
// ValidatingWebhookConfigurations that register the webhooks with
// kube-apiserver: the manifests.yaml controller-gen writes into
// config/webhook, with the same defaults and checks.
//
//	// +kubebuilder:webhook:path=/mutate-batch-example-com-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.example.com,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kb.io,admissionReviewVersions=v1
//	// +kubebuilder:webhookconfiguration:mutating=true,name=cronjob-mutating
//
// The markers describe their package and may stand in any of its
// comments. The caBundle is left out, for cert-manager's injector or
// webhook.InjectCABundle to fill in.
package webhookcfg

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/internal/codegen/markers"
)

// Webhook is one +kubebuilder:webhook marker.
type Webhook struct {
	Mutating                bool
	Name                    string
	Path, URL               string
	ServiceName             string
	ServiceNamespace        string
	ServicePort             *int32
	FailurePolicy           string
	MatchPolicy             string
	SideEffects             string
	TimeoutSeconds          int32
	Groups, Resources       []string
	Verbs, Versions         []string
	AdmissionReviewVersions []string
	ReinvocationPolicy      string
	// Where is the marker's position, for errors.
	Where string
}

// Configuration is one +kubebuilder:webhookconfiguration marker: the
// name of the mutating or the validating configuration.
type Configuration struct {
	Mutating bool
	Name     string
	Where    string
}

// Markers are the webhook markers of a set of packages.
type Markers struct {
	Webhooks       []Webhook
	Configurations []Configuration // +kubebuilder:webhookconfiguration markers
}

// Empty reports whether there is no webhook.
func (m *Markers) Empty() bool { return len(m.Webhooks) == 0 }

// Collect adds the webhook markers in the comments of files (every
// comment group, doc comments and free-standing ones). It reports
// whether it found any.
func (m *Markers) Collect(fset *token.FileSet, files []*ast.File) (bool, error) {
	found := false
	for _, f := range files {
		for _, cg := range f.Comments {
			var lines []string
			for _, c := range cg.List {
				lines = append(lines, strings.TrimPrefix(c.Text, "//"))
			}
			set, err := markers.Parse(lines)
			if err != nil {
				return false, fmt.Errorf("%s: %w", fset.Position(cg.Pos()), err)
			}
			for _, mk := range set {
				where := fset.Position(cg.Pos()).String()
				switch mk.Name {
				case markers.Webhook:
					w, err := parseWebhook(mk)
					if err != nil {
						return false, fmt.Errorf("%s: %s: %w", where, mk.Text, err)
					}
					w.Where = where
					m.Webhooks = append(m.Webhooks, w)
					found = true
				case markers.WebhookConfiguration:
					c, err := parseConfiguration(mk)
					if err != nil {
						return false, fmt.Errorf("%s: %s: %w", where, mk.Text, err)
					}
					c.Where = where
					m.Configurations = append(m.Configurations, c)
					found = true
				}
			}
		}
	}
	return found, nil
}

// args reads a marker's arguments by name, and says which it did not
// know.
type args struct {
	m    markers.Marker
	used map[string]bool
	err  error
}

func (a *args) raw(name string) (string, bool) {
	a.used[strings.ToLower(name)] = true
	return a.m.Arg(name)
}

func (a *args) str(name string, required bool) string {
	v, ok := a.raw(name)
	if !ok {
		if required && a.err == nil {
			a.err = fmt.Errorf("%s= is required", name)
		}
		return ""
	}
	s, err := markers.String(v)
	if err != nil && a.err == nil {
		a.err = fmt.Errorf("%s: %w", name, err)
	}
	return s
}

func (a *args) list(name string, required bool) []string {
	v, ok := a.raw(name)
	if !ok {
		if required && a.err == nil {
			a.err = fmt.Errorf("%s= is required", name)
		}
		return nil
	}
	l, err := markers.List(v)
	if err != nil && a.err == nil {
		a.err = fmt.Errorf("%s: %w", name, err)
	}
	return l
}

func (a *args) boolean(name string, required bool) bool {
	v, ok := a.raw(name)
	if !ok {
		if required && a.err == nil {
			a.err = fmt.Errorf("%s= is required", name)
		}
		return false
	}
	b, err := markers.Bool(v)
	if err != nil && a.err == nil {
		a.err = fmt.Errorf("%s: %w", name, err)
	}
	return b
}

func (a *args) integer(name string) (int64, bool) {
	v, ok := a.raw(name)
	if !ok {
		return 0, false
	}
	n, err := markers.Int(v)
	if err != nil && a.err == nil {
		a.err = fmt.Errorf("%s: %w", name, err)
	}
	return n, true
}

// unknown fails on arguments no field read.
func (a *args) unknown() error {
	if a.err != nil {
		return a.err
	}
	for _, arg := range a.m.Args {
		if !a.used[strings.ToLower(arg.Name)] {
			return fmt.Errorf("unknown argument %s", arg.Name)
		}
	}
	return nil
}

func parseWebhook(m markers.Marker) (Webhook, error) {
	a := &args{m: m, used: map[string]bool{}}
	w := Webhook{
		Mutating:                a.boolean("mutating", true),
		Name:                    a.str("name", true),
		Path:                    a.str("path", false),
		URL:                     a.str("url", false),
		ServiceName:             a.str("serviceName", false),
		ServiceNamespace:        a.str("serviceNamespace", false),
		FailurePolicy:           a.str("failurePolicy", true),
		MatchPolicy:             a.str("matchPolicy", false),
		SideEffects:             a.str("sideEffects", false),
		Groups:                  a.list("groups", true),
		Resources:               a.list("resources", true),
		Verbs:                   a.list("verbs", true),
		Versions:                a.list("versions", true),
		AdmissionReviewVersions: a.list("admissionReviewVersions", true),
		ReinvocationPolicy:      a.str("reinvocationPolicy", false),
	}
	if n, ok := a.integer("timeoutSeconds"); ok {
		w.TimeoutSeconds = int32(n)
		if n < 1 || n > 30 {
			return w, fmt.Errorf("timeoutSeconds must be between 1 and 30")
		}
	}
	if n, ok := a.integer("servicePort"); ok {
		if n < 1 || n > 65535 {
			return w, fmt.Errorf("servicePort %d is not a port", n)
		}
		p := int32(n)
		w.ServicePort = &p
	}
	if wv := a.list("webhookVersions", false); len(wv) > 0 && !slices.Equal(wv, []string{"v1"}) {
		return w, fmt.Errorf("webhookVersions: only v1 is served since Kubernetes 1.22")
	}
	if _, ok := a.raw("patch"); ok {
		return w, fmt.Errorf("patch= is not supported by kubewire-gen: set the fields with their own arguments")
	}
	if err := a.unknown(); err != nil {
		return w, err
	}
	if (w.Path == "") == (w.URL == "") {
		return w, fmt.Errorf("give one of path= (a Service of the cluster) and url=")
	}
	if w.URL != "" && (w.ServiceName != "" || w.ServiceNamespace != "" || w.ServicePort != nil) {
		return w, fmt.Errorf("url= excludes serviceName, serviceNamespace and servicePort")
	}
	return w, nil
}

func parseConfiguration(m markers.Marker) (Configuration, error) {
	a := &args{m: m, used: map[string]bool{}}
	c := Configuration{Mutating: a.boolean("mutating", true), Name: a.str("name", false)}
	if err := a.unknown(); err != nil {
		return c, err
	}
	return c, nil
}
