package validation_test

import "testing"

func pvc(spec string) string {
	return `{"metadata":{"name":"p",` + meta + `},"spec":{` + spec + `}}`
}

const pvcValid = `"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"volumeMode":"Filesystem"`

func TestPersistentVolumeClaimRules(t *testing.T) {
	const res = "/v1/persistentvolumeclaims"
	const subdomainMsg = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	runKindCases(t, []kindCase{
		{name: "valid", resource: res, obj: pvc(pvcValid)},
		{name: "spec fields", resource: res,
			obj: pvc(`"accessModes":["Bogus","ReadWriteOncePod","ReadWriteOnce"],"storageClassName":"A_b","volumeMode":"X","resources":{"requests":{"storage":"0"}}`),
			want: []string{
				`FieldValueNotSupported spec.accessModes: Unsupported value: "Bogus": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"`,
				`FieldValueForbidden spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes`,
				`FieldValueInvalid spec.resources[storage]: Invalid value: "0": must be greater than zero`,
				`FieldValueInvalid spec.storageClassName: Invalid value: "A_b": ` + subdomainMsg,
				`FieldValueNotSupported spec.volumeMode: Unsupported value: "X": supported values: "Block", "Filesystem"`,
			}},
		{name: "no access modes nor storage", resource: res, obj: pvc(`"resources":{}`),
			want: []string{"FieldValueRequired spec.accessModes: Required value: at least 1 access mode is required", "FieldValueRequired spec.resources[storage]: Required value"}},
		{name: "data sources", resource: res,
			obj: pvc(pvcValid + `,"dataSource":{"kind":"PersistentVolumeClaim","name":"x"},"dataSourceRef":{"apiGroup":"a_b","kind":"","name":"x"}`),
			want: []string{
				"FieldValueRequired spec.dataSourceRef.kind: Required value",
				`FieldValueInvalid spec.dataSourceRef.apiGroup: Invalid value: "a_b": ` + subdomainMsg,
				"FieldValueInvalid spec: Invalid value: {}: must match dataSourceRef",
			}},
		{name: "update changes access modes and volume mode", resource: res, old: pvc(pvcValid),
			obj: pvc(`"accessModes":["ReadWriteMany"],"resources":{"requests":{"storage":"1Gi"}},"volumeMode":"Block"`),
			want: []string{
				"FieldValueForbidden spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n" +
					"@@ -1,6 +1,6 @@\n {\n  \"AccessModes\": [\n-  \"ReadWriteOnce\"\n+  \"ReadWriteMany\"\n  ],\n  \"Selector\": null,\n  \"Resources\": {\n" +
					"@@ -11,7 +11,7 @@\n  },\n  \"VolumeName\": \"\",\n  \"StorageClassName\": null,\n- \"VolumeMode\": \"Filesystem\",\n+ \"VolumeMode\": \"Block\",\n" +
					"  \"DataSource\": null,\n  \"DataSourceRef\": null,\n  \"VolumeAttributesClassName\": null\n",
				`FieldValueInvalid volumeMode: Invalid value: "Block": field is immutable`,
			}},
		{name: "update sets a first volume name and class", resource: res, old: pvc(pvcValid),
			obj: pvc(pvcValid + `,"volumeName":"pv1","storageClassName":"fast"`)},
		{name: "unbound claim grows its request", resource: res, old: pvc(pvcValid),
			obj: pvc(`"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"2Gi"}},"volumeMode":"Filesystem"`),
			want: []string{"FieldValueForbidden spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n" +
				"@@ -6,7 +6,7 @@\n  \"Resources\": {\n   \"Limits\": null,\n   \"Requests\": {\n-   \"storage\": \"1Gi\"\n+   \"storage\": \"2Gi\"\n   }\n  },\n  \"VolumeName\": \"\",\n"}},
		{name: "bound claim grows its request", resource: res, old: `{"metadata":{"name":"p",` + meta + `},"spec":{` + pvcValid + `,"volumeName":"pv1"},"status":{"phase":"Bound"}}`,
			obj: `{"metadata":{"name":"p",` + meta + `},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"2Gi"}},"volumeMode":"Filesystem","volumeName":"pv1"},"status":{"phase":"Bound"}}`},
		{name: "update equal quantity spelled otherwise", resource: res, old: pvc(pvcValid),
			obj: pvc(`"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1024Mi"}},"volumeMode":"Filesystem"`)},
	})
}

// A StatefulSet's claim templates are checked as claims, and mounted as
// PVC volumes of its template.
func TestStatefulSetClaimTemplates(t *testing.T) {
	runKindCases(t, []kindCase{
		{name: "claim template", resource: "apps/v1/statefulsets",
			obj: statefulSet(`"serviceName":"db","volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{`+pvcValid+`}}]`, `"restartPolicy":"Always"`)},
		{name: "claim template without name or spec", resource: "apps/v1/statefulsets",
			obj: statefulSet(`"serviceName":"db","volumeClaimTemplates":[{"spec":{"volumeMode":"Filesystem"}}]`, `"restartPolicy":"Always"`),
			want: []string{
				"FieldValueRequired spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required",
				"FieldValueRequired spec.volumeClaimTemplates[0].spec.resources[storage]: Required value",
				"FieldValueRequired spec.template.spec.volumes[0].persistentVolumeClaim.claimName: Required value",
				"FieldValueRequired spec.template.spec.volumes[0].name: Required value",
			}},
	})
}
