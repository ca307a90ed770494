package strategy

import (
	"slices"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// normalizeClusterIPs is what kube-apiserver's Service storage does to
// an update's cluster IPs before anything else: clusterIPs left out
// are the stored ones when clusterIP is unchanged, and a clusterIP
// changed (or cleared) alone takes clusterIPs with it.
func normalizeClusterIPs(sp, op *corev1.ServiceSpec) {
	if len(op.ClusterIPs) > 0 && len(sp.ClusterIPs) == 0 && op.ClusterIP == sp.ClusterIP {
		sp.ClusterIPs = op.ClusterIPs
	}
	if op.ClusterIP == sp.ClusterIP || !slices.Equal(op.ClusterIPs, sp.ClusterIPs) {
		return
	}
	if op.ClusterIP != "" && sp.ClusterIP == "" {
		sp.ClusterIPs = nil
	} else {
		sp.ClusterIPs = []string{sp.ClusterIP}
	}
}
