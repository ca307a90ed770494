package strategy

import (
	"reflect"
	"slices"
	"strconv"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/admission/defaults"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// CreateVia is the way a create reaches the strategy.
type CreateVia int

const (
	// Added is Server.Add's create, which keeps the status it is given.
	Added CreateVia = iota
	// API is a create through the API: a POST, or an update or apply
	// that creates.
	API
	// StatusWrite is a status update or apply of a missing Service,
	// which creates it: kube-apiserver's status storage has the create
	// strategy but not the Service REST's address allocation, so no
	// cluster IP is given.
	StatusWrite
)

// PrepareCreate sets what kube-apiserver's registry sets on a create
// whatever the body says (its strategies' PrepareForCreate, and the
// Service REST's address allocation): status starts empty (a Pod's
// Pending with its QoS class, a Namespace's Active), a Job gets its
// generated selector, a Service its cluster IP, a Lease loses the fields
// behind a feature gate kube-apiserver v1.36 leaves off. Defaults that depend on
// what was reset apply again, as they do when kube-apiserver reads the
// object back from storage. The uid must be set. Objects added with
// Server.Add (Added) keep their status.
func (st *Strategy) PrepareCreate(d *object.Draft, via CreateVia) {
	api := via != Added
	if d.Custom != nil {
		if d.Res.Status && api {
			delete(d.Custom, "status")
		}
		return
	}
	switch o := d.Typed.(type) {
	case *apiextensionsv1.CustomResourceDefinition:
		prepareCRDCreate(o)
		return
	case *corev1.Namespace:
		o.Status = corev1.NamespaceStatus{Phase: "Active"}
		if !slices.Contains(o.Spec.Finalizers, corev1.FinalizerKubernetes) {
			o.Spec.Finalizers = append(o.Spec.Finalizers, corev1.FinalizerKubernetes)
		}
		return
	case *corev1.Node:
		// Nodes are created with the status their kubelet reports.
	default:
		if d.Res.Status && api {
			resetStatus(d.Typed)
		}
	}
	switch o := d.Typed.(type) {
	case *corev1.Pod:
		if api || o.Status.Phase == "" {
			o.Status = corev1.PodStatus{Phase: "Pending", QOSClass: podQOS(&o.Spec)}
		}
	case *batchv1.Job:
		if o.Spec.ManualSelector == nil || !*o.Spec.ManualSelector {
			generateJobSelector(o)
		}
	case *corev1.Service:
		if via != StatusWrite {
			st.allocateService(o, nil)
		}
	case *corev1.PersistentVolume:
		now := st.Now()
		o.Status.LastPhaseTransitionTime = &now
	case *corev1.PersistentVolumeClaim:
		preparePVC(&o.Spec, nil)
	case *corev1.ServiceAccount:
		keepSecretNames(o)
	case *coordinationv1.Lease:
		// Behind CoordinatedLeaderElection, off by default in v1.36.
		o.Spec.Strategy, o.Spec.PreferredHolder = nil, nil
	}
	defaults.Apply(d.Typed)
}

// resetStatus sets the Status field of a built-in object to its zero
// value.
func resetStatus(t object.Typed) {
	v := reflect.ValueOf(t).Elem()
	if f := v.FieldByName("Status"); f.IsValid() && f.CanSet() {
		f.Set(reflect.Zero(f.Type()))
	}
}

// PrepareUpdate keeps what an update of the main resource may not
// change: a Namespace's finalizers (changed through /finalize) and
// status, a Service's allocated addresses when the update leaves them
// out, and a Lease's fields behind a feature gate kube-apiserver v1.36
// leaves off unless the stored Lease has them.
func (st *Strategy) PrepareUpdate(old, d *object.Draft) {
	switch o := d.Typed.(type) {
	case *apiextensionsv1.CustomResourceDefinition:
		prepareCRDUpdate(old.Typed.(*apiextensionsv1.CustomResourceDefinition), o)
	case *corev1.Namespace:
		prev := old.Typed.(*corev1.Namespace)
		o.Spec.Finalizers = prev.Spec.Finalizers
		o.Status = prev.Status
	case *corev1.Service:
		st.allocateService(o, old.Typed.(*corev1.Service))
	case *appsv1.DaemonSet:
		prev := old.Typed.(*appsv1.DaemonSet)
		gen, err := strconv.ParseInt(prev.Annotations[object.DaemonSetGenerationAnnotation], 10, 64)
		if err != nil {
			gen = 1
		}
		if !reflect.DeepEqual(prev.Spec.Template, o.Spec.Template) {
			gen++
		}
		if o.Annotations == nil {
			o.Annotations = map[string]string{}
		}
		o.Annotations[object.DaemonSetGenerationAnnotation] = strconv.FormatInt(gen, 10)
	case *corev1.PersistentVolume:
		if prev := old.Typed.(*corev1.PersistentVolume); prev.Status.Phase != o.Status.Phase {
			now := st.Now()
			o.Status.LastPhaseTransitionTime = &now
		}
	case *corev1.ServiceAccount:
		keepSecretNames(o)
	case *corev1.Pod:
		preparePodUpdate(o, old.Typed.(*corev1.Pod))
	case *corev1.PersistentVolumeClaim:
		prev := old.Typed.(*corev1.PersistentVolumeClaim)
		preparePVC(&o.Spec, &prev.Spec)
		normalizeDataSources(&prev.Spec)
	case *coordinationv1.Lease:
		// Behind CoordinatedLeaderElection: an update keeps only those
		// the stored Lease has.
		prev := old.Typed.(*coordinationv1.Lease)
		if prev.Spec.Strategy == nil {
			o.Spec.Strategy = nil
		}
		if prev.Spec.PreferredHolder == nil {
			o.Spec.PreferredHolder = nil
		}
	}
}

// podQOS is the QoS class of a pod: Guaranteed when every container
// limits CPU and memory and requests what it limits, BestEffort when no
// container requests or limits either, Burstable otherwise (pod-level
// resources, when set, decide alone).
func podQOS(spec *corev1.PodSpec) corev1.PodQOSClass {
	compute := []corev1.ResourceName{"cpu", "memory"}
	var reqs []corev1.ResourceRequirements
	if spec.Resources != nil {
		reqs = append(reqs, *spec.Resources)
	} else {
		for _, cs := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
			for _, c := range cs {
				reqs = append(reqs, c.Resources)
			}
		}
	}
	any, guaranteed := false, true
	for _, r := range reqs {
		for _, name := range compute {
			req, hasReq := r.Requests[name]
			lim, hasLim := r.Limits[name]
			if hasReq && !req.IsZero() || hasLim && !lim.IsZero() {
				any = true
			}
			if !hasLim || !hasReq || req.Cmp(lim) != 0 {
				guaranteed = false
			}
		}
	}
	switch {
	case !any:
		return "BestEffort"
	case guaranteed:
		return "Guaranteed"
	}
	return "Burstable"
}

// generateJobSelector gives a Job the selector kube-apiserver generates,
// matching its uid, and the labels that go with it on its pod template.
func generateJobSelector(j *batchv1.Job) {
	t := &j.Spec.Template
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	for _, k := range []string{"job-name", "batch.kubernetes.io/job-name"} {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = j.Name
		}
	}
	for _, k := range []string{"controller-uid", "batch.kubernetes.io/controller-uid"} {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = string(j.UID)
		}
	}
	if j.Spec.Selector == nil {
		j.Spec.Selector = &metav1.LabelSelector{}
	}
	if j.Spec.Selector.MatchLabels == nil {
		j.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := j.Spec.Selector.MatchLabels["batch.kubernetes.io/controller-uid"]; !ok {
		j.Spec.Selector.MatchLabels["batch.kubernetes.io/controller-uid"] = string(j.UID)
	}
}
