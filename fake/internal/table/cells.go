package table

import (
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	networkingv1 "github.com/kubewire/kubewire/api/networking/v1"
	rbacv1 "github.com/kubewire/kubewire/api/rbac/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// The cells of built-in kinds' Table rows, as kube-apiserver's printers
// fill them (every column, the wide ones included: kubectl hides the
// columns of priority 1 unless -o wide). Kinds without a function here
// whose recorded columns are Name and Created At get the default
// convertor's cells.

// rowCondition is a Table row's condition (a finished Pod's).
type rowCondition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// builtinCells returns the cells of an object's row and its conditions,
// or ok false when the fake has no printer for the kind.
func builtinCells(t object.Typed, now time.Time) (cells []any, conds []rowCondition, ok bool) {
	age := func(m *metav1.ObjectMeta) string { return sinceTime(m.CreationTimestamp.Time, now) }
	switch o := t.(type) {
	case *corev1.Pod:
		cells, conds = podCells(o, now)
	case *corev1.ConfigMap:
		cells = []any{o.Name, int64(len(o.Data) + len(o.BinaryData)), age(&o.ObjectMeta)}
	case *corev1.Secret:
		cells = []any{o.Name, string(o.Type), int64(len(o.Data)), age(&o.ObjectMeta)}
	case *corev1.Namespace:
		cells = []any{o.Name, string(o.Status.Phase), age(&o.ObjectMeta)}
	case *corev1.ServiceAccount:
		cells = []any{o.Name, age(&o.ObjectMeta)}
	case *corev1.Service:
		cells = serviceCells(o, age(&o.ObjectMeta))
	case *corev1.Node:
		cells = nodeCells(o, age(&o.ObjectMeta))
	case *corev1.Event:
		cells = eventCells(o, now)
	case *corev1.Endpoints:
		cells = []any{o.Name, endpointsString(o), age(&o.ObjectMeta)}
	case *corev1.PersistentVolumeClaim:
		cells = claimCells(o, age(&o.ObjectMeta))
	case *corev1.PersistentVolume:
		cells = volumeCells(o, age(&o.ObjectMeta))
	case *corev1.ReplicationController:
		var containers []corev1.Container
		if o.Spec.Template != nil {
			containers = o.Spec.Template.Spec.Containers
		}
		names, images := containerCells(containers)
		cells = []any{o.Name, int64(deref(o.Spec.Replicas)), int64(o.Status.Replicas), int64(o.Status.ReadyReplicas), age(&o.ObjectMeta), names, images, formatLabels(o.Spec.Selector)}
	case *corev1.PodTemplate:
		names, images := containerCells(o.Template.Spec.Containers)
		cells = []any{o.Name, names, images, formatLabels(o.Template.Labels)}
	case *appsv1.Deployment:
		names, images := containerCells(o.Spec.Template.Spec.Containers)
		cells = []any{o.Name, fmt.Sprintf("%d/%d", o.Status.ReadyReplicas, deref(o.Spec.Replicas)), int64(o.Status.UpdatedReplicas), int64(o.Status.AvailableReplicas), age(&o.ObjectMeta),
			names, images, SelectorString(o.Spec.Selector)}
	case *appsv1.ReplicaSet:
		names, images := containerCells(o.Spec.Template.Spec.Containers)
		cells = []any{o.Name, int64(deref(o.Spec.Replicas)), int64(o.Status.Replicas), int64(o.Status.ReadyReplicas), age(&o.ObjectMeta), names, images, formatSelector(o.Spec.Selector)}
	case *appsv1.StatefulSet:
		names, images := containerCells(o.Spec.Template.Spec.Containers)
		cells = []any{o.Name, fmt.Sprintf("%d/%d", o.Status.ReadyReplicas, deref(o.Spec.Replicas)), age(&o.ObjectMeta), names, images}
	case *appsv1.DaemonSet:
		names, images := containerCells(o.Spec.Template.Spec.Containers)
		st := o.Status
		cells = []any{o.Name, int64(st.DesiredNumberScheduled), int64(st.CurrentNumberScheduled), int64(st.NumberReady), int64(st.UpdatedNumberScheduled), int64(st.NumberAvailable),
			formatLabels(o.Spec.Template.Spec.NodeSelector), age(&o.ObjectMeta), names, images, formatSelector(o.Spec.Selector)}
	case *batchv1.Job:
		cells = jobCells(o, now)
	case *batchv1.CronJob:
		last := "<none>"
		if o.Status.LastScheduleTime != nil {
			last = sinceTime(o.Status.LastScheduleTime.Time, now)
		}
		zone := "<none>"
		if o.Spec.TimeZone != nil {
			zone = *o.Spec.TimeZone
		}
		suspend := "<unset>"
		if o.Spec.Suspend != nil {
			suspend = map[bool]string{true: "True", false: "False"}[*o.Spec.Suspend]
		}
		names, images := containerCells(o.Spec.JobTemplate.Spec.Template.Spec.Containers)
		cells = []any{o.Name, o.Spec.Schedule, zone, suspend, int64(len(o.Status.Active)), last, age(&o.ObjectMeta), names, images, formatSelector(o.Spec.JobTemplate.Spec.Selector)}
	case *networkingv1.Ingress:
		class := "<none>"
		if o.Spec.IngressClassName != nil {
			class = *o.Spec.IngressClassName
		}
		var addrs []string
		for _, in := range o.Status.LoadBalancer.Ingress {
			if in.IP != "" {
				addrs = append(addrs, in.IP)
			} else if in.Hostname != "" {
				addrs = append(addrs, in.Hostname)
			}
		}
		ports := "80"
		if len(o.Spec.TLS) > 0 {
			ports = "80, 443"
		}
		cells = []any{o.Name, class, ingressHosts(o.Spec.Rules), strings.Join(sortedUnique(addrs), ","), ports, age(&o.ObjectMeta)}
	case *coordinationv1.Lease:
		holder := ""
		if o.Spec.HolderIdentity != nil {
			holder = *o.Spec.HolderIdentity
		}
		cells = []any{o.Name, holder, age(&o.ObjectMeta)}
	case *rbacv1.RoleBinding:
		cells = bindingCells(o.Name, o.RoleRef, o.Subjects, age(&o.ObjectMeta))
	case *rbacv1.ClusterRoleBinding:
		cells = bindingCells(o.Name, o.RoleRef, o.Subjects, age(&o.ObjectMeta))
	default:
		cells, ok := moreCells(t, now)
		return cells, nil, ok
	}
	return cells, conds, true
}

// sinceTime is how long ago t was, as kube-apiserver's printers write it
// ("<unknown>" for a zero time).
func sinceTime(t, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return humanDuration(now.Sub(t))
}

// humanDuration writes a duration with the precision kubectl's columns
// use: seconds up to two minutes, then minutes and seconds, minutes,
// hours and minutes, hours, days and hours, days, years and days.
func humanDuration(d time.Duration) string {
	secs := int(d.Seconds())
	switch {
	case secs < -1:
		return "<invalid>"
	case secs < 0:
		return "0s"
	case secs < 120:
		return strconv.Itoa(secs) + "s"
	}
	mins := int(d / time.Minute)
	switch {
	case mins < 10:
		if s := int(d/time.Second) % 60; s != 0 {
			return fmt.Sprintf("%dm%ds", mins, s)
		}
		return fmt.Sprintf("%dm", mins)
	case mins < 180:
		return fmt.Sprintf("%dm", mins)
	}
	hours := int(d / time.Hour)
	switch {
	case hours < 8:
		if m := mins % 60; m != 0 {
			return fmt.Sprintf("%dh%dm", hours, m)
		}
		return fmt.Sprintf("%dh", hours)
	case hours < 48:
		return fmt.Sprintf("%dh", hours)
	case hours < 24*8:
		if h := hours % 24; h != 0 {
			return fmt.Sprintf("%dd%dh", hours/24, h)
		}
		return fmt.Sprintf("%dd", hours/24)
	case hours < 24*365*2:
		return fmt.Sprintf("%dd", hours/24)
	case hours < 24*365*8:
		if dy := (hours / 24) % 365; dy != 0 {
			return fmt.Sprintf("%dy%dd", hours/24/365, dy)
		}
		return fmt.Sprintf("%dy", hours/24/365)
	}
	return fmt.Sprintf("%dy", hours/24/365)
}

func deref(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// containerCells are the Containers and Images columns.
func containerCells(cs []corev1.Container) (string, string) {
	names := make([]string, len(cs))
	images := make([]string, len(cs))
	for i, c := range cs {
		names[i], images[i] = c.Name, c.Image
	}
	return strings.Join(names, ","), strings.Join(images, ",")
}

// formatLabels writes a label map as key=value pairs sorted by key, or
// "<none>".
func formatLabels(m map[string]string) string {
	if len(m) == 0 {
		return "<none>"
	}
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, ",")
}

// formatSelector writes a label selector, "<none>" when empty.
func formatSelector(ls *metav1.LabelSelector) string {
	if s := SelectorString(ls); s != "" {
		return s
	}
	return "<none>"
}

func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

func serviceCells(s *corev1.Service, age string) []any {
	internal := "<none>"
	if len(s.Spec.ClusterIPs) > 0 {
		internal = s.Spec.ClusterIPs[0]
	}
	external := "<unknown>"
	switch s.Spec.Type {
	case "ClusterIP", "NodePort":
		external = "<none>"
		if len(s.Spec.ExternalIPs) > 0 {
			external = strings.Join(s.Spec.ExternalIPs, ",")
		}
	case "LoadBalancer":
		var lb []string
		for _, in := range s.Status.LoadBalancer.Ingress {
			if in.IP != "" {
				lb = append(lb, in.IP)
			} else if in.Hostname != "" {
				lb = append(lb, in.Hostname)
			}
		}
		all := append(sortedUnique(lb), s.Spec.ExternalIPs...)
		external = strings.Join(all, ",")
		if external == "" {
			external = "<pending>"
		}
	case "ExternalName":
		external = s.Spec.ExternalName
	}
	ports := make([]string, len(s.Spec.Ports))
	for i, p := range s.Spec.Ports {
		ports[i] = fmt.Sprintf("%d/%s", p.Port, p.Protocol)
		if p.NodePort > 0 {
			ports[i] = fmt.Sprintf("%d:%d/%s", p.Port, p.NodePort, p.Protocol)
		}
	}
	portCell := strings.Join(ports, ",")
	if portCell == "" {
		portCell = "<none>"
	}
	return []any{s.Name, string(s.Spec.Type), internal, external, portCell, age, formatLabels(s.Spec.Selector)}
}

func nodeCells(n *corev1.Node, age string) []any {
	var status []string
	for _, c := range n.Status.Conditions {
		if c.Type == "Ready" {
			if c.Status == "True" {
				status = append(status, "Ready")
			} else {
				status = append(status, "NotReady")
			}
		}
	}
	if len(status) == 0 {
		status = append(status, "Unknown")
	}
	if n.Spec.Unschedulable {
		status = append(status, "SchedulingDisabled")
	}
	var roles []string
	for k, v := range n.Labels {
		switch {
		case strings.HasPrefix(k, "node-role.kubernetes.io/"):
			if r := strings.TrimPrefix(k, "node-role.kubernetes.io/"); r != "" {
				roles = append(roles, r)
			}
		case k == "kubernetes.io/role" && v != "":
			roles = append(roles, v)
		}
	}
	roleCell := strings.Join(sortedUnique(roles), ",")
	if roleCell == "" {
		roleCell = "<none>"
	}
	addr := func(typ corev1.NodeAddressType) string {
		for _, a := range n.Status.Addresses {
			if a.Type == typ {
				return a.Address
			}
		}
		return "<none>"
	}
	info := n.Status.NodeInfo
	orUnknown := func(s string) string {
		if s == "" {
			return "<unknown>"
		}
		return s
	}
	kernel := orUnknown(info.KernelVersion)
	if info.Architecture != "" {
		kernel += " (" + info.Architecture + ")"
	}
	return []any{n.Name, strings.Join(status, ","), roleCell, age, info.KubeletVersion,
		addr("InternalIP"), addr("ExternalIP"), orUnknown(info.OSImage), kernel, orUnknown(info.ContainerRuntimeVersion)}
}

func eventCells(e *corev1.Event, now time.Time) []any {
	first := sinceTime(e.FirstTimestamp.Time, now)
	if e.FirstTimestamp.IsZero() {
		first = sinceTime(e.EventTime.Time, now)
	}
	last := sinceTime(e.LastTimestamp.Time, now)
	if e.LastTimestamp.IsZero() {
		last = first
	}
	count := e.Count
	if e.Series != nil {
		last = sinceTime(e.Series.LastObservedTime.Time, now)
		count = e.Series.Count
	} else if count == 0 {
		count = 1
	}
	target := strings.ToLower(e.InvolvedObject.Kind)
	if e.InvolvedObject.Name != "" {
		target += "/" + e.InvolvedObject.Name
	}
	component, instance := e.Source.Component, e.Source.Host
	if component == "" {
		component = e.ReportingController
	}
	if instance == "" {
		instance = e.ReportingInstance
	}
	source := component
	if instance != "" {
		source += ", " + instance
	}
	return []any{last, e.Type, e.Reason, target, e.InvolvedObject.FieldPath, source, strings.TrimSpace(e.Message), first, int64(count), e.Name}
}

func endpointsString(e *corev1.Endpoints) string {
	if len(e.Subsets) == 0 {
		return "<none>"
	}
	const most = 3
	var list []string
	count, more := 0, false
	add := func(s string) {
		if len(list) == most {
			more = true
			return
		}
		list = append(list, s)
	}
	for _, ss := range e.Subsets {
		if len(ss.Ports) == 0 {
			count += len(ss.Addresses)
			for _, a := range ss.Addresses {
				add(a.IP)
			}
			continue
		}
		for _, p := range ss.Ports {
			count += len(ss.Addresses)
			for _, a := range ss.Addresses {
				add(net.JoinHostPort(a.IP, strconv.Itoa(int(p.Port))))
			}
		}
	}
	out := strings.Join(list, ",")
	if more {
		return fmt.Sprintf("%s + %d more...", out, count-most)
	}
	return out
}

// accessModes writes access modes as RWO, ROX, RWX and RWOP, in that order.
func accessModes(modes []corev1.PersistentVolumeAccessMode) string {
	var out []string
	for _, m := range []struct{ mode, short string }{{"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}} {
		if slices.Contains(modes, corev1.PersistentVolumeAccessMode(m.mode)) {
			out = append(out, m.short)
		}
	}
	return strings.Join(out, ",")
}

func claimCells(c *corev1.PersistentVolumeClaim, age string) []any {
	phase := string(c.Status.Phase)
	if c.DeletionTimestamp != nil {
		phase = "Terminating"
	}
	vac, mode := "<unset>", "<unset>"
	if c.Spec.VolumeAttributesClassName != nil {
		vac = *c.Spec.VolumeAttributesClassName
	}
	if c.Spec.VolumeMode != nil {
		mode = string(*c.Spec.VolumeMode)
	}
	capacity, modes := "", ""
	if c.Spec.VolumeName != "" {
		modes = accessModes(c.Status.AccessModes)
		if q, ok := c.Status.Capacity["storage"]; ok {
			capacity = q.String()
		} else {
			capacity = "0"
		}
	}
	class := ""
	if c.Spec.StorageClassName != nil {
		class = *c.Spec.StorageClassName
	} else if v, ok := c.Annotations["volume.beta.kubernetes.io/storage-class"]; ok {
		class = v
	}
	return []any{c.Name, phase, c.Spec.VolumeName, capacity, modes, class, vac, age, mode}
}

func volumeCells(v *corev1.PersistentVolume, age string) []any {
	claim := ""
	if r := v.Spec.ClaimRef; r != nil {
		claim = r.Namespace + "/" + r.Name
	}
	size := "0"
	if q, ok := v.Spec.Capacity["storage"]; ok {
		size = q.String()
	}
	phase := string(v.Status.Phase)
	if v.DeletionTimestamp != nil {
		phase = "Terminating"
	}
	vac, mode := "<unset>", "<unset>"
	if v.Spec.VolumeAttributesClassName != nil {
		vac = *v.Spec.VolumeAttributesClassName
	}
	if v.Spec.VolumeMode != nil {
		mode = string(*v.Spec.VolumeMode)
	}
	class := v.Spec.StorageClassName
	if a, ok := v.Annotations["volume.beta.kubernetes.io/storage-class"]; ok {
		class = a
	}
	return []any{v.Name, size, accessModes(v.Spec.AccessModes), string(v.Spec.PersistentVolumeReclaimPolicy), phase, claim, class, vac, v.Status.Reason, age, mode}
}

func jobCells(j *batchv1.Job, now time.Time) []any {
	var completions string
	switch {
	case j.Spec.Completions != nil:
		completions = fmt.Sprintf("%d/%d", j.Status.Succeeded, *j.Spec.Completions)
	case j.Spec.Parallelism != nil && *j.Spec.Parallelism > 1:
		completions = fmt.Sprintf("%d/1 of %d", j.Status.Succeeded, *j.Spec.Parallelism)
	default:
		completions = fmt.Sprintf("%d/1", j.Status.Succeeded)
	}
	var dur string
	switch {
	case j.Status.StartTime == nil:
	case j.Status.CompletionTime == nil:
		dur = humanDuration(now.Sub(j.Status.StartTime.Time))
	default:
		dur = humanDuration(j.Status.CompletionTime.Sub(j.Status.StartTime.Time))
	}
	has := func(t string) bool {
		for _, c := range j.Status.Conditions {
			if string(c.Type) == t {
				return c.Status == "True"
			}
		}
		return false
	}
	status := "Running"
	switch {
	case has("Complete"):
		status = "Complete"
	case has("Failed"):
		status = "Failed"
	case j.DeletionTimestamp != nil:
		status = "Terminating"
	case has("Suspended"):
		status = "Suspended"
	case has("FailureTarget"):
		status = "FailureTarget"
	case has("SuccessCriteriaMet"):
		status = "SuccessCriteriaMet"
	}
	names, images := containerCells(j.Spec.Template.Spec.Containers)
	return []any{j.Name, status, completions, dur, sinceTime(j.CreationTimestamp.Time, now), names, images, formatSelector(j.Spec.Selector)}
}

func ingressHosts(rules []networkingv1.IngressRule) string {
	const most = 3
	var list []string
	more := false
	for _, r := range rules {
		if len(list) == most {
			more = true
		}
		if !more && r.Host != "" {
			list = append(list, r.Host)
		}
	}
	if len(list) == 0 {
		return "*"
	}
	out := strings.Join(list, ",")
	if more {
		return fmt.Sprintf("%s + %d more...", out, len(rules)-most)
	}
	return out
}

func bindingCells(name string, ref rbacv1.RoleRef, subjects []rbacv1.Subject, age string) []any {
	var users, groups, sas []string
	for _, s := range subjects {
		switch s.Kind {
		case "ServiceAccount":
			sas = append(sas, s.Namespace+"/"+s.Name)
		case "User":
			users = append(users, s.Name)
		case "Group":
			groups = append(groups, s.Name)
		}
	}
	return []any{name, ref.Kind + "/" + ref.Name, age, strings.Join(users, ", "), strings.Join(groups, ", "), strings.Join(sas, ", ")}
}
