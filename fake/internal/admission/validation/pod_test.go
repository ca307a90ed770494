package validation_test

import (
	"github.com/kubewire/kubewire/fake/internal/admission/validation"
	"strings"
	"testing"
)

// podSpec is a Pod with its defaults set and these spec fields.
func podWith(spec string) string {
	return `{"metadata":{"name":"p",` + meta + `},"spec":{"restartPolicy":"Always","dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30,` + spec + `}}`
}

const podContainer = `{"name":"c","image":"i","imagePullPolicy":"Always","terminationMessagePolicy":"File"`

func TestPodVolumesAndUpdates(t *testing.T) {
	const res = "/v1/pods"
	const labelMsg = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
	runKindCases(t, []kindCase{
		{name: "volumes and mounts", resource: res,
			obj: podWith(`"containers":[` + podContainer + `,"volumeMounts":[{"name":"a","mountPath":"/a","subPath":"/abs"},{"name":"zz","mountPath":"/a"}]}],` +
				`"volumes":[{"name":"a","emptyDir":{}},{"gcePersistentDisk":{"fsType":""}},{"name":"A_","hostPath":{"path":"../x"},"nfs":{"server":"s","path":"p"}},` +
				`{"name":"b","secret":{"defaultMode":1000,"items":[{"key":"","path":"..a"}]}},{"name":"a","emptyDir":{}}]`),
			want: []string{
				"FieldValueRequired spec.volumes[1].persistentDisk.pdName: Required value",
				"FieldValueRequired spec.volumes[1].name: Required value",
				`FieldValueInvalid spec.volumes[2].hostPath.path: Invalid value: "../x": must not contain '..'`,
				"FieldValueForbidden spec.volumes[2].nfs: Forbidden: may not specify more than 1 volume type",
				`FieldValueInvalid spec.volumes[2].name: Invalid value: "A_": ` + labelMsg,
				"FieldValueRequired spec.volumes[3].secret.secretName: Required value",
				"FieldValueInvalid spec.volumes[3].secret.defaultMode: Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive",
				"FieldValueRequired spec.volumes[3].secret.items[0].key: Required value",
				`FieldValueInvalid spec.volumes[3].secret.items[0].path: Invalid value: "..a": must not start with '..'`,
				`FieldValueDuplicate spec.volumes[4].name: Duplicate value: "a"`,
				`FieldValueInvalid spec.containers[0].volumeMounts.subPath: Invalid value: "/abs": must be a relative path`,
				`FieldValueNotFound spec.containers[0].volumeMounts[1].name: Not found: "zz"`,
				`FieldValueInvalid spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/a": must be unique`,
			}},
		{name: "init containers and tolerations", resource: res,
			obj: podWith(`"containers":[` + podContainer + `}],"initContainers":[{"name":"c","image":"i","imagePullPolicy":"Always","terminationMessagePolicy":"File","startupProbe":{"exec":{"command":["x"]}}}],` +
				`"tolerations":[{"operator":"Bogus"},{"key":"k","operator":"Exists","value":"v","effect":"NoSchedule","tolerationSeconds":3}]`),
			want: []string{
				`FieldValueDuplicate spec.initContainers[0].name: Duplicate value: "c"`,
				"FieldValueForbidden spec.initContainers[0].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always",
				"FieldValueInvalid spec.tolerations[0].operator: Invalid value: \"Bogus\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
				`FieldValueNotSupported spec.tolerations[0].operator: Unsupported value: "Bogus": supported values: "Equal", "Exists"`,
				"FieldValueInvalid spec.tolerations[1].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
				"FieldValueInvalid spec.tolerations[1].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'",
			}},
		{name: "update changes an image and adds a toleration", resource: res,
			old: podWith(`"containers":[` + podContainer + `}]`),
			obj: podWith(`"containers":[{"name":"c","image":"j","imagePullPolicy":"Always","terminationMessagePolicy":"File"}],"tolerations":[{"key":"k","operator":"Exists"}]`)},
		{name: "update adds a container", resource: res,
			old:  podWith(`"containers":[` + podContainer + `}]`),
			obj:  podWith(`"containers":[` + podContainer + `},{"name":"d","image":"i","imagePullPolicy":"Always","terminationMessagePolicy":"File"}]`),
			want: []string{"FieldValueForbidden spec.containers: Forbidden: pod updates may not add or remove containers"}},
		{name: "update modifies a toleration and raises the deadline", resource: res,
			old:  podWith(`"containers":[` + podContainer + `}],"activeDeadlineSeconds":5,"tolerations":[{"key":"k","operator":"Exists"}]`),
			obj:  podWith(`"containers":[` + podContainer + `}],"activeDeadlineSeconds":6,"tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}]`),
			want: []string{"FieldValueInvalid spec.activeDeadlineSeconds: Invalid value: 6: must be less than or equal to previous value"}},
	})
}

// A Pod update that changes another field is refused with the diff of
// the specs in kube-apiserver's internal form.
func TestPodUpdateDiff(t *testing.T) {
	old := draft(t, "/v1/pods", podWith(`"containers":[`+podContainer+`}]`))
	changed := draft(t, "/v1/pods", podWith(`"containers":[`+podContainer+`,"workingDir":"/w"}]`))
	aerr := validation.New(nil).Validate(changed, old)
	if aerr == nil {
		t.Fatal("changed workingDir accepted")
	}
	c := aerr.Status.Details.Causes
	want := "Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n" +
		"@@ -7,7 +7,7 @@\n    \"Image\": \"i\",\n    \"Command\": null,\n    \"Args\": null,\n-   \"WorkingDir\": \"\",\n+   \"WorkingDir\": \"/w\",\n    \"Ports\": null,\n    \"EnvFrom\": null,\n    \"Env\": null,\n"
	if len(c) != 1 || c[0].Field != "spec" || c[0].Message != want {
		t.Errorf("causes %+v\nwant message %q", c, want)
	}
	if !strings.Contains(aerr.Status.Message, "@@ -7,7 +7,7 @@") {
		t.Errorf("message %q lacks the diff", aerr.Status.Message)
	}
}
