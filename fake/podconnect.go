package fake

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// pods/log, exec, attach and portforward are answered as kube-apiserver
// answers them when no kubelet can be reached: the fake runs no
// containers. The checks come in kube-apiserver's order (the Pod, its
// container, its node, the node's address), so a missing Pod stays a
// 404 and an unscheduled one gets the server's own answer; only the
// last step, dialing the kubelet, says that the fake has none, unless
// Options.Exec emulates one for exec and attach (podexec.go).

// kubeletPort is the port kube-apiserver dials when a Node reports none.
const kubeletPort = 10250

// preferredAddressTypes is kube-apiserver's default
// --kubelet-preferred-address-types.
var preferredAddressTypes = []corev1.NodeAddressType{"Hostname", "InternalDNS", "InternalIP", "ExternalDNS", "ExternalIP"}

func (s *Server) servePodConnect(w http.ResponseWriter, req *http.Request, r *request.Request) {
	if r.Subresource == "log" {
		if aerr := logOptions(req.URL.Query(), r.Name); aerr != nil {
			request.WriteError(w, req, aerr)
			return
		}
	}
	pod, aerr := s.connectPod(r)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	q := req.URL.Query()
	container := ""
	if r.Subresource != "portforward" {
		if container, aerr = podContainer(pod, q.Get("container")); aerr != nil {
			request.WriteError(w, req, aerr)
			return
		}
	}
	node := pod.Spec.NodeName
	if node == "" {
		if r.Subresource == "log" {
			// kube-apiserver streams nothing from a Pod with no node.
			s.writeBody(w, req, http.StatusOK, "text/plain", nil)
			return
		}
		request.WriteError(w, req, apierr.BadRequest(fmt.Sprintf("pod %s does not have a host assigned", r.Name)))
		return
	}
	host, aerr := s.kubeletAddress(r.Res, node)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	if s.opts.Exec != nil && (r.Subresource == "exec" || r.Subresource == "attach") {
		s.serveExec(w, req, r, pod, container)
		return
	}
	if s.opts.Logs != nil && r.Subresource == "log" {
		s.serveLogs(w, req, pod, container)
		return
	}
	noKubelet := fmt.Sprintf("kubewire-fake runs no containers: no kubelet serves node %q", node)
	if r.Subresource == "log" {
		loc := fmt.Sprintf("https://%s/containerLogs/%s/%s/%s", host, pod.Namespace, pod.Name, container)
		request.WriteError(w, req, apierr.InternalMessage(fmt.Sprintf("Get %q: %s", loc, noKubelet)))
		return
	}
	request.WriteError(w, req, apierr.InternalMessage("error dialing backend: "+noKubelet))
}

// connectPod is the Pod a connect request names.
func (s *Server) connectPod(r *request.Request) (*corev1.Pod, *apierr.Error) {
	cur := s.store.Get(r.Res, object.Key(r.Namespace, r.Name))
	if cur == nil {
		return nil, apierr.NotFound(r.Res.Kind, r.Name)
	}
	d, err := r.Res.DraftOf(cur)
	if err != nil {
		return nil, apierr.Internal(err)
	}
	pod, ok := d.Typed.(*corev1.Pod)
	if !ok {
		return nil, apierr.InternalMessage("pods are not stored as Pods")
	}
	return pod, nil
}

// podContainer picks the container a request names, or the Pod's only
// one, as kube-apiserver does.
func podContainer(pod *corev1.Pod, name string) (string, *apierr.Error) {
	var names []string
	for _, c := range pod.Spec.InitContainers {
		names = append(names, c.Name)
	}
	for _, c := range pod.Spec.Containers {
		names = append(names, c.Name)
	}
	for _, c := range pod.Spec.EphemeralContainers {
		names = append(names, c.Name)
	}
	if name == "" {
		switch len(pod.Spec.Containers) {
		case 1:
			return pod.Spec.Containers[0].Name, nil
		case 0:
			return "", apierr.BadRequest("a container name must be specified for pod " + pod.Name)
		}
		return "", apierr.BadRequest(fmt.Sprintf("a container name must be specified for pod %s, choose one of: [%s]", pod.Name, strings.Join(names, " ")))
	}
	for _, n := range names {
		if n == name {
			return name, nil
		}
	}
	return "", apierr.BadRequest(fmt.Sprintf("container %s is not valid for pod %s", name, pod.Name))
}

// kubeletAddress is host:port of the kubelet kube-apiserver would dial
// for a node, or its error when the Node is missing or has no address.
// A missing Node is reported as kube-apiserver v1.36 reports it: as a
// missing resource of the Pod's kind (pods "<node>" not found).
func (s *Server) kubeletAddress(pods *object.Resource, name string) (string, *apierr.Error) {
	res := s.lookup("", "v1", "nodes")
	if res == nil {
		return "", apierr.InternalMessage("nodes are not served")
	}
	cur := s.store.Get(res, object.Key("", name))
	if cur == nil {
		return "", apierr.NotFound(pods.Kind, name)
	}
	d, err := res.DraftOf(cur)
	if err != nil {
		return "", apierr.Internal(err)
	}
	node, ok := d.Typed.(*corev1.Node)
	if !ok {
		return "", apierr.InternalMessage("nodes are not stored as Nodes")
	}
	host := ""
	for _, t := range preferredAddressTypes {
		for _, a := range node.Status.Addresses {
			if a.Type == t {
				host = a.Address
				break
			}
		}
		if host != "" {
			break
		}
	}
	if host == "" {
		known := make([]string, len(node.Status.Addresses))
		for i, a := range node.Status.Addresses {
			known[i] = "{" + string(a.Type) + " " + a.Address + "}"
		}
		return "", apierr.InternalMessage("no preferred addresses found; known addresses: [" + strings.Join(known, " ") + "]")
	}
	port := int(node.Status.DaemonEndpoints.KubeletEndpoint.Port)
	if port <= 0 {
		port = kubeletPort
	}
	return net.JoinHostPort(host, strconv.Itoa(port)), nil
}

// logOptions validates a log request's options as kube-apiserver does
// before it looks up the Pod: a value that is not a number is a 400, a
// number out of range a 422.
func logOptions(q url.Values, pod string) *apierr.Error {
	nums := map[string]int64{}
	for _, name := range []string{"tailLines", "limitBytes", "sinceSeconds"} {
		if !q.Has(name) {
			continue
		}
		n, err := strconv.ParseInt(q.Get(name), 10, 64)
		if err != nil {
			return apierr.BadRequest(err.Error())
		}
		nums[name] = n
	}
	var c []apierr.Cause
	if n, ok := nums["tailLines"]; ok && n < 0 {
		c = append(c, apierr.Cause{Type: "FieldValueInvalid", Field: "tailLines", Message: fmt.Sprintf("Invalid value: %d: must be greater than or equal to 0", n)})
	}
	if n, ok := nums["limitBytes"]; ok && n < 1 {
		c = append(c, apierr.Cause{Type: "FieldValueInvalid", Field: "limitBytes", Message: fmt.Sprintf("Invalid value: %d: must be greater than 0", n)})
	}
	if n, ok := nums["sinceSeconds"]; ok && n < 1 && !q.Has("sinceTime") {
		c = append(c, apierr.Cause{Type: "FieldValueInvalid", Field: "sinceSeconds", Message: fmt.Sprintf("Invalid value: %d: must be greater than 0", n)})
	}
	if q.Has("stream") {
		// kube-apiserver v1.36 serves split streams behind an alpha gate.
		c = append(c, apierr.Cause{Type: "FieldValueForbidden", Field: "stream", Message: "Forbidden: may not be specified"})
	}
	if len(c) > 0 {
		return apierr.Invalid("", "PodLogOptions", pod, c...)
	}
	return nil
}
