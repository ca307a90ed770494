package object

import corev1 "github.com/kubewire/kubewire/api/core/v1"

// eventFields are a stored Event's selectable fields under both APIs
// that serve it: kube-apiserver evaluates an events.k8s.io/v1 selector
// (regarding.*, reportingController) on the core/v1 fields it maps to,
// so both names select the one stored event. source falls back to the
// reporting controller, as an event written through events.k8s.io has
// no source.
func eventFields(o *corev1.Event) map[string]string {
	ref := o.InvolvedObject
	source := o.Source.Component
	if source == "" {
		source = o.ReportingController
	}
	f := map[string]string{"reason": o.Reason, "reportingComponent": o.ReportingController, "reportingController": o.ReportingController,
		"source": source, "type": o.Type}
	for _, p := range []struct{ name, value string }{
		{"kind", ref.Kind}, {"namespace", ref.Namespace}, {"name", ref.Name}, {"uid", string(ref.UID)},
		{"apiVersion", ref.APIVersion}, {"resourceVersion", ref.ResourceVersion}, {"fieldPath", ref.FieldPath},
	} {
		f["involvedObject."+p.name] = p.value
		f["regarding."+p.name] = p.value
	}
	return f
}
