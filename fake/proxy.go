package fake

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// pods/proxy, services/proxy and nodes/proxy are answered as
// kube-apiserver answers them when nothing listens at the address it
// finds: it looks up the object and an address in kube-apiserver's
// order (so a missing Pod, Service, Endpoints or Node is a 404 and an
// unusable address its 400 or 503), and only the last step, reaching
// the backend, says the fake runs none (503 "error trying to reach
// service", as kube-apiserver's proxy transport reports a failed dial).

func (s *Server) serveProxy(w http.ResponseWriter, req *http.Request, r *request.Request) {
	var host string
	var aerr *apierr.Error
	switch r.Res.Kind.Resource {
	case "pods":
		host, aerr = s.podProxyHost(r)
	case "services":
		host, aerr = s.serviceProxyHost(r)
	default:
		host, aerr = s.nodeProxyHost(r)
	}
	if aerr == nil {
		aerr = apierr.New(http.StatusServiceUnavailable, "ServiceUnavailable",
			fmt.Sprintf("error trying to reach service: dial tcp %s: kubewire-fake runs no containers", host), nil)
	}
	request.WriteError(w, req, aerr)
}

// splitSchemeNamePort splits a proxy id, "name", "name:port" or
// "scheme:name:port" (scheme http or https), as utilnet does.
func splitSchemeNamePort(id string) (scheme, name, port string, ok bool) {
	parts := strings.Split(id, ":")
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		name, port = parts[0], parts[1]
	case 3:
		scheme, name, port = parts[0], parts[1], parts[2]
	default:
		return "", "", "", false
	}
	if name == "" || scheme != "" && scheme != "http" && scheme != "https" {
		return "", "", "", false
	}
	return scheme, name, port, true
}

// podProxyHost is the address pods/proxy dials: the Pod's IP and the
// port the id names or its first container port.
func (s *Server) podProxyHost(r *request.Request) (string, *apierr.Error) {
	_, name, port, ok := splitSchemeNamePort(r.Name)
	if !ok {
		return "", apierr.BadRequest(fmt.Sprintf("invalid pod request %q", r.Name))
	}
	byName := *r
	byName.Name = name
	pod, aerr := s.connectPod(&byName)
	if aerr != nil {
		return "", aerr
	}
	if port == "" {
		for _, c := range pod.Spec.Containers {
			if len(c.Ports) > 0 {
				port = strconv.Itoa(int(c.Ports[0].ContainerPort))
				break
			}
		}
	}
	ip := pod.Status.PodIP
	if len(pod.Status.PodIPs) > 0 {
		ip = pod.Status.PodIPs[0].IP
	}
	if parsed := net.ParseIP(ip); parsed == nil || !parsed.IsGlobalUnicast() {
		return "", apierr.BadRequest("address not allowed")
	}
	if port == "" {
		return ip, nil
	}
	return net.JoinHostPort(ip, port), nil
}

// serviceProxyHost is the address services/proxy dials: an address of
// the Service's Endpoints with the port the id names.
func (s *Server) serviceProxyHost(r *request.Request) (string, *apierr.Error) {
	_, name, port, ok := splitSchemeNamePort(r.Name)
	if !ok {
		return "", apierr.BadRequest(fmt.Sprintf("invalid service request %q", r.Name))
	}
	svcObj := s.store.Get(r.Res, object.Key(r.Namespace, name))
	if n, err := strconv.ParseInt(port, 10, 64); err == nil {
		// A numeric port names the Service's port of that number.
		if svcObj == nil {
			return "", apierr.NotFound(r.Res.Kind, name)
		}
		svc, aerr := typedAs[*corev1.Service](r.Res, svcObj)
		if aerr != nil {
			return "", aerr
		}
		found := false
		for _, p := range svc.Spec.Ports {
			if int64(p.Port) == n {
				port, found = p.Name, true
				break
			}
		}
		if !found {
			return "", apierr.New(http.StatusServiceUnavailable, "ServiceUnavailable", fmt.Sprintf("no service port %d found for service %q", n, name), nil)
		}
	}
	epRes := s.lookup("", "v1", "endpoints")
	if epRes == nil {
		return "", apierr.InternalMessage("endpoints are not served")
	}
	epObj := s.store.Get(epRes, object.Key(r.Namespace, name))
	if epObj == nil {
		return "", apierr.NotFound(epRes.Kind, name)
	}
	eps, aerr := typedAs[*corev1.Endpoints](epRes, epObj)
	if aerr != nil {
		return "", aerr
	}
	if len(eps.Subsets) == 0 {
		return "", apierr.New(http.StatusServiceUnavailable, "ServiceUnavailable", fmt.Sprintf("no endpoints available for service %q", name), nil)
	}
	for _, ss := range eps.Subsets {
		for _, p := range ss.Ports {
			// kube-apiserver also checks that the Pod exists and has
			// that IP; the fake takes any address that names a Pod.
			if p.Name != port {
				continue
			}
			for _, a := range ss.Addresses {
				if a.TargetRef != nil && a.TargetRef.Kind == "Pod" {
					return net.JoinHostPort(a.IP, strconv.Itoa(int(p.Port))), nil
				}
			}
		}
	}
	return "", apierr.New(http.StatusServiceUnavailable, "ServiceUnavailable", fmt.Sprintf("no endpoints available for service %q", r.Name), nil)
}

// nodeProxyHost is the address nodes/proxy dials: the kubelet's, or
// the Node's address with the port the id names.
func (s *Server) nodeProxyHost(r *request.Request) (string, *apierr.Error) {
	_, name, port, ok := splitSchemeNamePort(r.Name)
	if !ok {
		return "", apierr.BadRequest(fmt.Sprintf("invalid node request %q", r.Name))
	}
	kubelet, aerr := s.kubeletAddress(r.Res, name)
	if aerr != nil {
		return "", aerr
	}
	host, kubeletPort, _ := net.SplitHostPort(kubelet)
	if ip := net.ParseIP(host); ip != nil && !ip.IsGlobalUnicast() {
		return "", apierr.BadRequest("address not allowed")
	}
	if port == "" {
		port = kubeletPort
	}
	return net.JoinHostPort(host, port), nil
}

// typedAs is a stored built-in object as its Go type.
func typedAs[T any](res *object.Resource, o *object.Stored) (T, *apierr.Error) {
	var zero T
	d, err := res.DraftOf(o)
	if err != nil {
		return zero, apierr.Internal(err)
	}
	t, ok := d.Typed.(T)
	if !ok {
		return zero, apierr.InternalMessage(res.Kind.Resource + " are not stored as their kind")
	}
	return t, nil
}
