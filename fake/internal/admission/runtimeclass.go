package admission

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	nodev1 "github.com/kubewire/kubewire/api/node/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// admitRuntimeClass is the RuntimeClass admission plugin on a Pod
// create: the class a Pod names must exist (403), and gives the Pod its
// overhead (which the Pod may only repeat) and its scheduling node
// selector (which the Pod may not contradict) and tolerations.
func (c *Chain) admitRuntimeClass(res *object.Resource, p *corev1.Pod, view storage.View) *apierr.Error {
	if p.Spec.RuntimeClassName == nil {
		return nil
	}
	rcRes := c.Lookup("node.k8s.io", "v1", "runtimeclasses")
	if rcRes == nil {
		return nil
	}
	o := view.Get(rcRes, *p.Spec.RuntimeClassName)
	if o == nil {
		return apierr.Forbidden(res.Kind, p.Name, fmt.Sprintf("pod rejected: RuntimeClass %q not found", *p.Spec.RuntimeClassName))
	}
	d, err := rcRes.DraftOf(o)
	if err != nil {
		return nil
	}
	rc := d.Typed.(*nodev1.RuntimeClass)
	if rc.Overhead != nil {
		if len(p.Spec.Overhead) > 0 && !sameResources(rc.Overhead.PodFixed, p.Spec.Overhead) {
			return apierr.Forbidden(res.Kind, p.Name, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead")
		}
		p.Spec.Overhead = maps.Clone(rc.Overhead.PodFixed)
	}
	if s := rc.Scheduling; s != nil {
		if p.Spec.NodeSelector == nil {
			p.Spec.NodeSelector = maps.Clone(s.NodeSelector)
		} else {
			for _, k := range slices.Sorted(maps.Keys(s.NodeSelector)) {
				if v, ok := p.Spec.NodeSelector[k]; ok && v != s.NodeSelector[k] {
					return apierr.Forbidden(res.Kind, p.Name, fmt.Sprintf("conflict: runtimeClass.scheduling.nodeSelector[%s] = %s; pod.spec.nodeSelector[%s] = %s", k, s.NodeSelector[k], k, v))
				}
				p.Spec.NodeSelector[k] = s.NodeSelector[k]
			}
		}
		for _, t := range s.Tolerations {
			if !containsToleration(p.Spec.Tolerations, t) {
				p.Spec.Tolerations = append(p.Spec.Tolerations, t)
			}
		}
	}
	return nil
}

// overheadWithoutClass is the RuntimeClass plugin's validation of a
// Pod create with an overhead but no RuntimeClass to define it.
func overheadWithoutClass(d *object.Draft) *apierr.Error {
	p, ok := d.Typed.(*corev1.Pod)
	if !ok || p.Spec.RuntimeClassName != nil || p.Spec.Overhead == nil {
		return nil
	}
	return apierr.Forbidden(d.Res.Kind, p.Name, "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead")
}

func sameResources(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, q := range a {
		if r, ok := b[k]; !ok || q.Cmp(r) != 0 {
			return false
		}
	}
	return true
}

func containsToleration(ts []corev1.Toleration, t corev1.Toleration) bool {
	for _, x := range ts {
		if reflect.DeepEqual(x, t) {
			return true
		}
	}
	return false
}
