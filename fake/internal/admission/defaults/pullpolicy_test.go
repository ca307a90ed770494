package defaults

import (
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// Images tagged latest (or untagged) are always pulled; images that are
// not valid references have no tag, so are pulled if not present, as
// kube-apiserver v1.36.3 defaults them; image volumes likewise.
func TestPullPolicy(t *testing.T) {
	tests := map[string]corev1.PullPolicy{
		"":                     "IfNotPresent",
		"Busybox":              "IfNotPresent",
		"Not_Valid!":           "IfNotPresent",
		"A:latest":             "IfNotPresent",
		"x-y":                  "Always",
		"busybox:1":            "IfNotPresent",
		"example.com:5000/a/b": "Always",
		"a@sha256:0123456789012345678901234567890123456789012345678901234567890123": "IfNotPresent",
	}
	for image, want := range tests {
		c := &corev1.Container{Name: "c", Image: image}
		coreDefaults(c)
		v := &corev1.ImageVolumeSource{Reference: image}
		coreDefaults(v)
		if c.ImagePullPolicy != want || v.PullPolicy != want {
			t.Errorf("image %q: container %q, volume %q, want %q", image, c.ImagePullPolicy, v.PullPolicy, want)
		}
	}
}
