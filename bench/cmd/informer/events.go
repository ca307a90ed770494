package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"

	kwcorev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The events phase streams M MODIFIED events to an informer's resumed
// watch as fast as the informer takes them. They are not written through
// the fake server: its update path costs 1-3 ms per Pod on this machine
// (a JSON round trip that keeps .status, under its store lock), so 20,000
// updates would take 20-60 s per child. Instead, once per server, the
// stream a kube-apiserver would send for M updates is encoded with the
// upstream encoders (k8s.io/api Pods in a runtime.Unknown envelope, in
// metav1.WatchEvent frames), and front answers each child's resumed
// watch with those bytes: every child of a server, of either SDK, reads
// the same stream.

// eventStream returns the frames of m MODIFIED events: the first p Pods
// the server holds (p = min(pods, m/2), in key order) have their "tier"
// label set to "frontend", then back to "backend", pass after pass, with
// resource versions from above anything the server will reach during the
// run. m is rounded down to a multiple of 2p; the count is returned.
func (s *server) eventStream(ctx context.Context, pods, m int) ([]byte, int, error) {
	p := min(pods, m/2)
	if p == 0 {
		return nil, 0, fmt.Errorf("no updates in %d events over %d Pods", m, pods)
	}
	m -= m % (2 * p)
	list, err := client.For[*kwcorev1.Pod](s.local).List(ctx, client.ListOptions{Limit: int64(p)})
	if err != nil {
		return nil, 0, err
	}
	if len(list.Items) != p {
		return nil, 0, fmt.Errorf("listed %d Pods, want %d", len(list.Items), p)
	}
	base, err := strconv.ParseUint(list.ResourceVersion, 10, 64)
	if err != nil {
		return nil, 0, err
	}
	base += 1_000_000
	up := make([]*corev1.Pod, p)
	for i, kp := range list.Items {
		b, err := kp.Marshal()
		if err != nil {
			return nil, 0, err
		}
		up[i] = new(corev1.Pod)
		if err := up[i].Unmarshal(b); err != nil {
			return nil, 0, err
		}
	}
	var out []byte
	for k := range m {
		pod := *up[k%p]
		labels := make(map[string]string, len(pod.Labels))
		for key, v := range pod.Labels {
			labels[key] = v
		}
		labels["tier"] = "frontend"
		if k/p%2 == 1 {
			labels["tier"] = "backend"
		}
		pod.Labels = labels
		pod.ResourceVersion = strconv.FormatUint(base+uint64(k), 10)
		raw, err := pod.Marshal()
		if err != nil {
			return nil, 0, err
		}
		u := runtime.Unknown{TypeMeta: runtime.TypeMeta{APIVersion: "v1", Kind: "Pod"}, Raw: raw}
		ub, err := u.Marshal()
		if err != nil {
			return nil, 0, err
		}
		ev := metav1.WatchEvent{Type: "MODIFIED", Object: runtime.RawExtension{Raw: append([]byte("k8s\x00"), ub...)}}
		eb, err := ev.Marshal()
		if err != nil {
			return nil, 0, err
		}
		out = binary.BigEndian.AppendUint32(out, uint32(len(eb)))
		out = append(out, eb...)
	}
	return out, m, nil
}
