package strategy

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"sync"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// serviceAddresses hands out cluster IPs (from 10.96.0.0/16, the range
// the e2e cluster uses) and node ports (30000-32767) as kube-apiserver's
// allocators do, at random and never twice. Addresses are not given
// back when a Service is deleted: the ranges outlast any test.
type serviceAddresses struct {
	mu    sync.Mutex
	ips   map[string]bool
	ports map[int32]bool
}

func random32() uint32 {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return binary.BigEndian.Uint32(b[:])
}

// take marks an address given in a request as used.
func (a *serviceAddresses) take(ip string, port int32) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ips == nil {
		a.ips, a.ports = map[string]bool{}, map[int32]bool{}
	}
	if ip != "" {
		a.ips[ip] = true
	}
	if port != 0 {
		a.ports[port] = true
	}
}

func (a *serviceAddresses) newIP() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ips == nil {
		a.ips, a.ports = map[string]bool{}, map[int32]bool{}
	}
	for {
		n := 2 + random32()%(1<<16-3) // neither the network, .1 (the kubernetes Service's) nor the broadcast address
		ip := fmt.Sprintf("10.96.%d.%d", n>>8, n&0xff)
		if !a.ips[ip] {
			a.ips[ip] = true
			return ip
		}
	}
}

func (a *serviceAddresses) newNodePort() int32 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ips == nil {
		a.ips, a.ports = map[string]bool{}, map[int32]bool{}
	}
	for {
		p := int32(30000 + random32()%2768)
		if !a.ports[p] {
			a.ports[p] = true
			return p
		}
	}
}

// allocateService gives a Service the cluster IP, IP families and node
// ports kube-apiserver allocates; on an update (old set) it first keeps
// the ones the stored Service has and the update leaves out.
func (st *Strategy) allocateService(svc, old *corev1.Service) {
	sp := &svc.Spec
	if old != nil {
		op := &old.Spec
		normalizeClusterIPs(sp, op)
		if sp.ClusterIP == "" && len(sp.ClusterIPs) == 0 {
			sp.ClusterIP, sp.ClusterIPs = op.ClusterIP, op.ClusterIPs
		}
		if len(sp.IPFamilies) == 0 {
			sp.IPFamilies = op.IPFamilies
		}
		if sp.IPFamilyPolicy == nil {
			sp.IPFamilyPolicy = op.IPFamilyPolicy
		}
		// Node ports carry over only while both need them, as on
		// kube-apiserver (a NodePort Service made ClusterIP by a PUT
		// leaving them out has none).
		for i := range sp.Ports {
			if !needsNodePorts(sp) || !needsNodePorts(op) {
				break
			}
			for _, p := range op.Ports {
				if sp.Ports[i].NodePort == 0 && p.Port == sp.Ports[i].Port && p.Protocol == sp.Ports[i].Protocol {
					sp.Ports[i].NodePort = p.NodePort
				}
			}
		}
		if sp.HealthCheckNodePort == 0 {
			sp.HealthCheckNodePort = op.HealthCheckNodePort
		}
	}
	if sp.Type == "ExternalName" {
		return
	}
	if sp.ClusterIP == "" && len(sp.ClusterIPs) > 0 {
		sp.ClusterIP = sp.ClusterIPs[0]
	}
	switch sp.ClusterIP {
	case "":
		sp.ClusterIP = st.services.newIP()
	case "None":
	default:
		st.services.take(sp.ClusterIP, 0)
	}
	if len(sp.ClusterIPs) == 0 {
		sp.ClusterIPs = []string{sp.ClusterIP}
	}
	if len(sp.IPFamilies) == 0 {
		sp.IPFamilies = []corev1.IPFamily{"IPv4"}
	}
	if sp.IPFamilyPolicy == nil {
		p := corev1.IPFamilyPolicy("SingleStack")
		sp.IPFamilyPolicy = &p
	}
	needsPorts := needsNodePorts(sp)
	for i := range sp.Ports {
		switch {
		case sp.Ports[i].NodePort != 0:
			st.services.take("", sp.Ports[i].NodePort)
		case needsPorts:
			sp.Ports[i].NodePort = st.services.newNodePort()
		}
	}
	if sp.Type == "LoadBalancer" && sp.ExternalTrafficPolicy == "Local" && sp.HealthCheckNodePort == 0 {
		sp.HealthCheckNodePort = st.services.newNodePort()
	}
}

// Strategy is what kube-apiserver's registry does to an object on a
// create or an update whatever the body says (see PrepareCreate and
// PrepareUpdate), with the addresses it allocated to Services.
type Strategy struct {
	services serviceAddresses
	Now      func() metav1.Time
}

// Reserve marks a Service's cluster IP or node port as allocated (for
// objects loaded as they were, with their addresses).
func (st *Strategy) Reserve(ip string, port int32) { st.services.take(ip, port) }

// needsNodePorts reports whether a Service of this spec is given node
// ports.
func needsNodePorts(sp *corev1.ServiceSpec) bool {
	return sp.Type == "NodePort" || (sp.Type == "LoadBalancer" && (sp.AllocateLoadBalancerNodePorts == nil || *sp.AllocateLoadBalancerNodePorts))
}
