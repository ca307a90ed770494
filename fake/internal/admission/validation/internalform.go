package validation

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// internalForm is a built-in object's value as kube-apiserver prints
// its internal type in an error (an immutable template, a spec diff):
// JSON whose fields have Go names, every field present (null, "", 0 or
// false when unset), embedded structs flattened, in the internal
// type's field order. The types of k8s.io/apimachinery (ObjectMeta,
// LabelSelector, Time, Quantity, IntOrString) keep their JSON form, as
// they are shared by both.
func internalForm(v any) any { return toInternal(reflect.ValueOf(v)) }

// internalOrder is the field order of the internal types whose fields
// are not in their v1 type's order (by v1 type name). A name missing
// from the v1 type is skipped.
var internalOrder = map[string][]string{
	"PodSpec": {"Volumes", "InitContainers", "Containers", "EphemeralContainers", "RestartPolicy", "TerminationGracePeriodSeconds",
		"ActiveDeadlineSeconds", "DNSPolicy", "NodeSelector", "ServiceAccountName", "AutomountServiceAccountToken", "NodeName",
		"SecurityContext", "ImagePullSecrets", "Hostname", "Subdomain", "SetHostnameAsFQDN", "Affinity", "SchedulerName",
		"Tolerations", "HostAliases", "PriorityClassName", "Priority", "PreemptionPolicy", "DNSConfig", "ReadinessGates",
		"RuntimeClassName", "Overhead", "EnableServiceLinks", "TopologySpreadConstraints", "OS", "SchedulingGates",
		"ResourceClaims", "Resources", "HostnameOverride", "SchedulingGroup"},
	"PodSecurityContext": {"HostNetwork", "HostPID", "HostIPC", "ShareProcessNamespace", "HostUsers", "SELinuxOptions",
		"WindowsOptions", "RunAsUser", "RunAsGroup", "RunAsNonRoot", "SupplementalGroups", "SupplementalGroupsPolicy", "FSGroup",
		"FSGroupChangePolicy", "Sysctls", "SeccompProfile", "AppArmorProfile", "SELinuxChangePolicy"},
	"VolumeSource": {"HostPath", "EmptyDir", "GCEPersistentDisk", "AWSElasticBlockStore", "GitRepo", "Secret", "NFS", "ISCSI",
		"Glusterfs", "PersistentVolumeClaim", "RBD", "Quobyte", "FlexVolume", "Cinder", "CephFS", "Flocker", "DownwardAPI", "FC",
		"AzureFile", "ConfigMap", "VsphereVolume", "AzureDisk", "PhotonPersistentDisk", "Projected", "PortworxVolume", "ScaleIO",
		"StorageOS", "CSI", "Ephemeral", "Image"},
	"PersistentVolumeSource": {"GCEPersistentDisk", "AWSElasticBlockStore", "HostPath", "Glusterfs", "NFS", "RBD", "Quobyte",
		"ISCSI", "FlexVolume", "Cinder", "CephFS", "FC", "Flocker", "AzureFile", "VsphereVolume", "AzureDisk",
		"PhotonPersistentDisk", "PortworxVolume", "ScaleIO", "Local", "StorageOS", "CSI"},
	"ServiceSpec": {"Type", "Ports", "Selector", "ClusterIP", "ClusterIPs", "IPFamilies", "IPFamilyPolicy", "ExternalName",
		"ExternalIPs", "LoadBalancerIP", "SessionAffinity", "SessionAffinityConfig", "LoadBalancerSourceRanges",
		"ExternalTrafficPolicy", "HealthCheckNodePort", "PublishNotReadyAddresses", "AllocateLoadBalancerNodePorts",
		"LoadBalancerClass", "InternalTrafficPolicy", "TrafficDistribution"},
}

// podHostFields are the v1 PodSpec fields the internal type holds in
// its security context.
var podHostFields = []string{"HostNetwork", "HostPID", "HostIPC", "ShareProcessNamespace", "HostUsers"}

const apiPackage = "github.com/kubewire/kubewire/api/"

// sharedType reports whether a type prints the same in both forms.
func sharedType(t reflect.Type) bool {
	p := t.PkgPath()
	return p == "" || !strings.HasPrefix(p, apiPackage) || strings.HasPrefix(p, apiPackage+"meta/") ||
		strings.HasPrefix(p, apiPackage+"intstr") || strings.HasPrefix(p, apiPackage+"quantity")
}

func toInternal(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Invalid:
		return nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return toInternal(v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Interface()
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = toInternal(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		if sharedType(v.Type().Elem()) && v.Type().Elem().Kind() != reflect.Struct {
			return v.Interface()
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			out[it.Key().String()] = toInternal(it.Value())
		}
		return out
	case reflect.Struct:
		if sharedType(v.Type()) {
			return v.Interface()
		}
		var obj orderedObject
		structFields(v, &obj)
		return obj
	}
	return v.Interface()
}

// structFields appends a struct's fields in the internal order,
// flattening embedded structs.
func structFields(v reflect.Value, obj *orderedObject) {
	t := v.Type()
	switch t.Name() {
	case "PodTemplateSpec":
		// The internal template embeds its ObjectMeta.
		obj.flattenJSON(v.FieldByName("ObjectMeta").Interface())
		obj.add("Spec", toInternal(v.FieldByName("Spec")))
		return
	case "PodSpec":
		podSpecFields(v, obj)
		return
	}
	names := internalOrder[t.Name()]
	if names == nil {
		for i := range t.NumField() {
			names = append(names, t.Field(i).Name)
		}
	}
	for _, name := range names {
		f, ok := t.FieldByName(name)
		if !ok || len(f.Index) != 1 || f.Tag.Get("json") == "-" {
			continue
		}
		fv := v.FieldByIndex(f.Index)
		if f.Anonymous && fv.Kind() == reflect.Struct && !sharedType(f.Type) {
			structFields(fv, obj)
			continue
		}
		obj.add(name, toInternal(fv))
	}
}

// podSpecFields is a PodSpec in its internal form: the host namespace
// fields move into the security context, deprecatedServiceAccount goes.
func podSpecFields(v reflect.Value, obj *orderedObject) {
	for _, name := range internalOrder["PodSpec"] {
		fv := v.FieldByName(name)
		if !fv.IsValid() {
			continue
		}
		if name != "SecurityContext" {
			obj.add(name, toInternal(fv))
			continue
		}
		var sc orderedObject
		for _, h := range podHostFields {
			sc.add(h, toInternal(v.FieldByName(h)))
		}
		if !fv.IsNil() {
			var rest orderedObject
			structFields(fv.Elem(), &rest)
			for _, kv := range rest {
				sc.add(kv.key, kv.value)
			}
		} else {
			for _, n := range internalOrder["PodSecurityContext"][len(podHostFields):] {
				sc.add(n, nil)
			}
		}
		obj.add("SecurityContext", sc.reorder(internalOrder["PodSecurityContext"]))
	}
}

// orderedObject is a JSON object whose keys keep their order.
type orderedObject []keyValue

type keyValue struct {
	key   string
	value any
}

func (o *orderedObject) add(k string, v any) { *o = append(*o, keyValue{k, v}) }

// reorder puts the keys named in order first, in that order.
func (o orderedObject) reorder(order []string) orderedObject {
	var out orderedObject
	for _, k := range order {
		for _, kv := range o {
			if kv.key == k {
				out = append(out, kv)
			}
		}
	}
	for _, kv := range o {
		found := false
		for _, k := range order {
			found = found || kv.key == k
		}
		if !found {
			out = append(out, kv)
		}
	}
	return out
}

// flattenJSON adds the fields of a value's JSON object, in order.
func (o *orderedObject) flattenJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return
	}
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return
		}
		var raw json.RawMessage
		if d.Decode(&raw) != nil {
			return
		}
		o.add(k.(string), raw)
	}
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.key)
		b.Write(k)
		b.WriteByte(':')
		val, err := json.Marshal(kv.value)
		if err != nil {
			return nil, err
		}
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
