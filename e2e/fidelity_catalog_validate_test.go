package e2e

// validateScenario writes objects breaking the built-in kinds' rules
// the fake checks, so each kind's causes, their order and messages
// (the immutable-spec diffs of kube-apiserver's internal types
// included) are compared with kube-apiserver's: claims, network
// policies, ingresses, endpoint slices, services, Pods (volumes,
// resources, probes, security context, the update rule) and Jobs.
func validateScenario(c *catalog) {
	c.begin("validate", "fid-validate")
	ns := "/api/v1/namespaces/${ns}/"
	net := "/apis/networking.k8s.io/v1/namespaces/${ns}/"
	batch := "/apis/batch/v1/namespaces/${ns}/"
	c.post("create service account", ns+"serviceaccounts", `{"metadata":{"name":"default"}}`)

	c.post("claim with bad spec", ns+"persistentvolumeclaims", `{"metadata":{"name":"bad"},"spec":{"accessModes":["Bogus","ReadWriteOncePod"],"storageClassName":"A_b","volumeMode":"X","resources":{"requests":{"storage":"0"}}}}`)
	c.post("create claim", ns+"persistentvolumeclaims", `{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`)
	c.patch("claim spec is immutable", ns+"persistentvolumeclaims/data", ctMerge, `{"spec":{"accessModes":["ReadWriteMany"],"volumeMode":"Block"}}`)
	c.patch("claim data source of another kind", ns+"persistentvolumeclaims/data", ctMerge, `{"spec":{"dataSourceRef":{"kind":"Snap"}}}`)

	c.post("network policy with bad ports and peers", net+"networkpolicies", `{"metadata":{"name":"np"},"spec":{"podSelector":{},"policyTypes":["Ingress","Bogus"],
		"egress":[{"ports":[{"port":""},{"port":70000,"endPort":5}],"to":[{},{"ipBlock":{"cidr":"10.0.0.1/8","except":["11.0.0.0/24","010.1.0.0/16"]},"podSelector":{}}]}]}}`)
	c.post("ingress without rules", net+"ingresses", `{"metadata":{"name":"empty"},"spec":{}}`)
	c.post("ingress with bad rules", net+"ingresses", `{"metadata":{"name":"ing"},"spec":{"defaultBackend":{"resource":{"kind":"K/x"}},
		"rules":[{"host":"1.2.3.4","http":{"paths":[]}},{"http":{"paths":[{"path":"a//b/..","pathType":"Prefix","backend":{"service":{"name":"s"}}}]}}]}}`)
	c.post("endpoint slice with bad addresses", "/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices", `{"metadata":{"name":"eps"},"addressType":"IPv4",
		"endpoints":[{"addresses":[]},{"addresses":["::1","010.1.1.1","0.0.0.0"],"nodeName":"N_"}],"ports":[{"name":"a","protocol":"X"},{"name":"a"}]}`)

	c.post("service with bad cluster IP", ns+"services", `{"metadata":{"name":"badip"},"spec":{"clusterIP":"x-y","ports":[{"port":80}]}}`)
	c.post("service with a local policy inside", ns+"services", `{"metadata":{"name":"local"},"spec":{"externalTrafficPolicy":"Local","ports":[{"port":80}]}}`)
	c.post("service named with a digit", ns+"services", `{"metadata":{"name":"1svc"},"spec":{"ports":[{"port":80}]}}`)

	c.post("pod with bad volumes and mounts", ns+"pods", `{"metadata":{"name":"vols"},"spec":{"containers":[{"name":"c","image":"busybox:1",
		"volumeMounts":[{"name":"zz","mountPath":"/a"}]}],"volumes":[{"gcePersistentDisk":{}},{"name":"b","secret":{"defaultMode":1000}}]}}`)
	c.post("pod with bad resources and probes", ns+"pods", `{"metadata":{"name":"res"},"spec":{"containers":[{"name":"c","image":"busybox:1",
		"resources":{"requests":{"cpu":"2"},"limits":{"cpu":"1"}},"livenessProbe":{"successThreshold":2}}],
		"securityContext":{"runAsUser":-1,"seLinuxChangePolicy":"MountOption"},"topologySpreadConstraints":[{"maxSkew":0}]}}`)
	c.post("create pod", ns+"pods", `{"metadata":{"name":"web"},"spec":{"containers":[{"name":"c","image":"busybox:1"}]}}`)
	c.patch("pod update changes a container's env", ns+"pods/web", ctStrategic, `{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"b"}]}]}}`)
	c.patch("pod update changes its image", ns+"pods/web", ctStrategic, `{"spec":{"containers":[{"name":"c","image":"busybox:2"}]}}`)

	c.post("create job", batch+"jobs", `{"metadata":{"name":"once"},"spec":{"completions":2,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox:1"}]}}}}`)
	c.patch("job template is immutable", batch+"jobs/once", ctStrategic, `{"spec":{"template":{"spec":{"securityContext":{"runAsUser":2}}}}}`)
	c.patch("job completions and managedBy are immutable", batch+"jobs/once", ctMerge, `{"spec":{"completions":3,"managedBy":"example.com/x"}}`)
}
