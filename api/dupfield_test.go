package api_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
)

// A ReadOnly decode shares a value from its first sighting on, so an
// object holding a field twice (duplicate keys, merged as encoding/json
// merges them) must merge into a copy: the objects decoded after it,
// holding the first value alone, keep exactly that.
func TestReadOnlyDuplicateFieldsDoNotChangeSharedValues(t *testing.T) {
	const (
		twice = `{"metadata":{"labels":{"a":"1"},"labels":{"b":"2"},"finalizers":["f"],"finalizers":["g"]},` +
			`"spec":{"containers":[{"name":"x","args":["p"]}],"containers":[{"name":"y"}],` +
			`"terminationGracePeriodSeconds":30,"securityContext":{"runAsUser":1},"securityContext":{"runAsGroup":2}}}`
		once = `{"metadata":{"labels":{"a":"1"},"finalizers":["f"]},` +
			`"spec":{"containers":[{"name":"x","args":["p"]}],"securityContext":{"runAsUser":1}}}`
	)
	d := &wire.Decoder{ReadOnly: true}
	decode := func(body string, d *wire.Decoder) corev1.Pod {
		var p corev1.Pod
		if err := codec.DecodeJSONWith(d, []byte(body), &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gotTwice := decode(twice, d)
	later := []corev1.Pod{decode(once, d), decode(once, d)}
	if diff := cmp.Diff(decode(twice, nil), gotTwice); diff != "" {
		t.Errorf("duplicate fields decode differently through a ReadOnly table (-plain +readonly):\n%s", diff)
	}
	want := decode(once, nil)
	for i, p := range later {
		if diff := cmp.Diff(want, p); diff != "" {
			t.Errorf("object %d after one with duplicate fields (-want +got):\n%s", i+2, diff)
		}
	}
}
