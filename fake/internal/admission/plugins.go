package admission

import (
	"fmt"
	"slices"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	schedulingv1 "github.com/kubewire/kubewire/api/scheduling/v1"
	storagev1 "github.com/kubewire/kubewire/api/storage/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// The admission plugins kube-apiserver enables by default that change
// what is created, as far as the fake runs them, on creates through the
// API (Server.Add skips them): ServiceAccount (a Pod runs as its
// namespace's "default" service account, which must exist, and mounts
// its token), Priority, DefaultTolerationSeconds, TaintNodesByCondition,
// StorageObjectInUseProtection and DefaultStorageClass. They run after
// the field manager, so what they add is nobody's field.

// runPlugins runs the built-in admission plugins on an object being
// created through the API.
func (c *Chain) runPlugins(d *object.Draft, view storage.View) *apierr.Error {
	switch o := d.Typed.(type) {
	case *corev1.Pod:
		return c.admitPod(d.Res, o, view)
	case *corev1.Node:
		taint := corev1.Taint{Key: "node.kubernetes.io/not-ready", Effect: "NoSchedule"}
		if !slices.ContainsFunc(o.Spec.Taints, func(t corev1.Taint) bool { return t.Key == taint.Key && t.Effect == taint.Effect }) {
			o.Spec.Taints = append(o.Spec.Taints, taint)
		}
	case *corev1.PersistentVolumeClaim:
		AddFinalizer(&o.ObjectMeta, "kubernetes.io/pvc-protection")
		if o.Spec.StorageClassName == nil {
			if name := c.defaultStorageClass(view); name != "" {
				o.Spec.StorageClassName = &name
			}
		}
	case *corev1.PersistentVolume:
		AddFinalizer(&o.ObjectMeta, "kubernetes.io/pv-protection")
	}
	return nil
}

func AddFinalizer(m *metav1.ObjectMeta, f string) {
	if !slices.Contains(m.Finalizers, f) {
		m.Finalizers = append(m.Finalizers, f)
	}
}

// defaultStorageClass names the StorageClass marked as the default one,
// or "".
func (c *Chain) defaultStorageClass(view storage.View) string {
	res := c.Lookup("storage.k8s.io", "v1", "storageclasses")
	for _, o := range view.List(res) {
		d, err := res.DraftOf(o)
		if err != nil {
			continue
		}
		if sc := d.Typed.(*storagev1.StorageClass); sc.Annotations["storageclass.kubernetes.io/is-default-class"] == "true" {
			return sc.Name
		}
	}
	return ""
}

// serviceAccountMount is where a Pod's service account token is mounted.
const serviceAccountMount = "/var/run/secrets/kubernetes.io/serviceaccount"

func (c *Chain) admitPod(res *object.Resource, p *corev1.Pod, view storage.View) *apierr.Error {
	if p.Annotations["kubernetes.io/config.mirror"] == "" {
		if aerr := c.admitServiceAccount(res, p, view); aerr != nil {
			return aerr
		}
	}
	if aerr := c.admitPriority(res, p, view); aerr != nil {
		return aerr
	}
	for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
		if !tolerates(p.Spec.Tolerations, key, "NoExecute") {
			secs := int64(300)
			p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: key, Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &secs})
		}
	}
	return c.admitRuntimeClass(res, p, view)
}

// tolerates reports whether a toleration tolerates the taint key:effect.
func tolerates(ts []corev1.Toleration, key string, effect corev1.TaintEffect) bool {
	for _, t := range ts {
		if (t.Effect == "" || t.Effect == effect) && (t.Key == key || t.Key == "" && t.Operator == "Exists") {
			return true
		}
	}
	return false
}

// admitServiceAccount makes a Pod run as a service account of its
// namespace and mounts the account's token, CA and namespace, as the
// ServiceAccount admission plugin does.
func (c *Chain) admitServiceAccount(res *object.Resource, p *corev1.Pod, view storage.View) *apierr.Error {
	if p.Spec.ServiceAccountName == "" {
		p.Spec.ServiceAccountName = "default"
	}
	p.Spec.DeprecatedServiceAccount = p.Spec.ServiceAccountName
	saRes := c.Lookup("", "v1", "serviceaccounts")
	o := view.Get(saRes, object.Key(p.Namespace, p.Spec.ServiceAccountName))
	if o == nil {
		return apierr.Forbidden(res.Kind, p.Name, fmt.Sprintf("error looking up service account %s/%s: serviceaccount %q not found", p.Namespace, p.Spec.ServiceAccountName, p.Spec.ServiceAccountName))
	}
	mount := p.Spec.AutomountServiceAccountToken
	if mount == nil {
		if d, err := saRes.DraftOf(o); err == nil {
			mount = d.Typed.(*corev1.ServiceAccount).AutomountServiceAccountToken
		}
	}
	if mount != nil && !*mount {
		return nil
	}
	name := ""
	for _, v := range p.Spec.Volumes {
		if strings.HasPrefix(v.Name, "kube-api-access-") {
			name = v.Name
		}
	}
	if name == "" {
		name = "kube-api-access-" + object.RandomSuffix()
		mode, expiry := int32(0o644), int64(3607)
		p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
			DefaultMode: &mode,
			Sources: []corev1.VolumeProjection{
				{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{ExpirationSeconds: &expiry, Path: "token"}},
				{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
				{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
			},
		}}})
	}
	for _, cs := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			if !slices.ContainsFunc(cs[i].VolumeMounts, func(m corev1.VolumeMount) bool { return m.MountPath == serviceAccountMount }) {
				cs[i].VolumeMounts = append(cs[i].VolumeMounts, corev1.VolumeMount{Name: name, ReadOnly: true, MountPath: serviceAccountMount})
			}
		}
	}
	return nil
}

// systemPriorityClasses are the PriorityClasses kube-apiserver creates.
func systemPriorityClasses() map[string]int32 {
	return map[string]int32{"system-node-critical": 2000001000, "system-cluster-critical": 2000000000}
}

// admitPriority resolves a Pod's priority from its PriorityClass (or
// the global default one), as the Priority admission plugin does.
func (c *Chain) admitPriority(res *object.Resource, p *corev1.Pod, view storage.View) *apierr.Error {
	pcRes := c.Lookup("scheduling.k8s.io", "v1", "priorityclasses")
	value, policy := int32(0), corev1.PreemptionPolicy("PreemptLowerPriority")
	if name := p.Spec.PriorityClassName; name != "" {
		o := view.Get(pcRes, name)
		switch v, system := systemPriorityClasses()[name]; {
		case o != nil:
			if d, err := pcRes.DraftOf(o); err == nil {
				pc := d.Typed.(*schedulingv1.PriorityClass)
				value = pc.Value
				if pc.PreemptionPolicy != nil {
					policy = *pc.PreemptionPolicy
				}
			}
		case system:
			value = v
		default:
			return apierr.Forbidden(res.Kind, p.Name, fmt.Sprintf("no PriorityClass with name %s was found", name))
		}
	} else {
		for _, o := range view.List(pcRes) {
			if d, err := pcRes.DraftOf(o); err == nil {
				if pc := d.Typed.(*schedulingv1.PriorityClass); pc.GlobalDefault {
					value = pc.Value
					p.Spec.PriorityClassName = pc.Name
					if pc.PreemptionPolicy != nil {
						policy = *pc.PreemptionPolicy
					}
				}
			}
		}
	}
	if p.Spec.Priority != nil && *p.Spec.Priority != value {
		return apierr.Forbidden(res.Kind, p.Name, fmt.Sprintf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *p.Spec.Priority, value))
	}
	p.Spec.Priority = &value
	if pp := p.Spec.PreemptionPolicy; pp != nil && *pp != policy {
		return apierr.Forbidden(res.Kind, p.Name, fmt.Sprintf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *pp, policy))
	}
	p.Spec.PreemptionPolicy = &policy
	return nil
}
