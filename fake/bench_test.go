package fake

import (
	"io"
	"strconv"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

func benchPod(i int) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "pod-" + strconv.Itoa(i), Namespace: "default", Labels: map[string]string{"app": "web", "idx": strconv.Itoa(i % 100)}},
		Spec: corev1.PodSpec{NodeName: "node-" + strconv.Itoa(i%50), Containers: []corev1.Container{
			{Name: "app", Image: "registry.example.com/app:1.2.3", Args: []string{"--port=8080", "--verbose"}},
			{Name: "sidecar", Image: "registry.example.com/proxy:4.5"},
		}},
		Status: corev1.PodStatus{Phase: "Running", PodIP: "10.0.0." + strconv.Itoa(i%250)},
	}
}

// BenchmarkAdd measures seeding the store.
func BenchmarkAdd(b *testing.B) {
	s := New(Options{})
	defer s.Close()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := s.Add(benchPod(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListPods serves a 10,000-Pod list, in protobuf, JSON and
// CBOR (with Options.CBOR).
func BenchmarkListPods(b *testing.B) {
	for _, accept := range []string{codec.MediaTypeProtobuf, codec.MediaTypeJSON, codec.MediaTypeCBOR} {
		b.Run(accept, func(b *testing.B) {
			s := New(Options{CBOR: accept == codec.MediaTypeCBOR})
			defer s.Close()
			for i := range 10_000 {
				if err := s.Add(benchPod(i)); err != nil {
					b.Fatal(err)
				}
			}
			c := &tclient{t: b, s: s, hc: s.Client(), url: "http://fake"}
			b.ReportAllocs()
			for b.Loop() {
				resp, err := c.hc.Do(c.request("GET", "/api/v1/pods", accept, ""))
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				b.SetBytes(n)
			}
		})
	}
}
