package defaults

import corev1 "github.com/kubewire/kubewire/api/core/v1"

// podIPsConverted makes a Pod status's podIP and podIPs agree as
// kube-apiserver's conversion through its internal form does: a podIP
// that podIPs does not start with replaces podIPs, and podIP is always
// podIPs' first.
func podIPsConverted(s *corev1.PodStatus) {
	if s.PodIP != "" && (len(s.PodIPs) == 0 || s.PodIPs[0].IP != s.PodIP) {
		s.PodIPs = []corev1.PodIP{{IP: s.PodIP}}
	}
	if len(s.PodIPs) > 0 {
		s.PodIP = s.PodIPs[0].IP
	}
}
