package e2e

// kindsScenario creates an object of each kind controllers and tools
// write most, as bare as the kind allows, so that the answers show the
// defaults, admission and registry preparation of each; then lists each
// kind as a Table (every column, the wide ones included); then deletes a
// Pod bound to a node (graceful deletion) and a Job (orphaning by
// default).
func kindsScenario(c *catalog) {
	c.begin("kinds", "fid-kinds")
	ns := "/api/v1/namespaces/${ns}/"
	apps := "/apis/apps/v1/namespaces/${ns}/"
	batch := "/apis/batch/v1/namespaces/${ns}/"
	c.post("create service account", ns+"serviceaccounts", `{"metadata":{"name":"default"}}`)
	c.post("create pod", ns+"pods", `{"metadata":{"name":"full","labels":{"app":"full"}},"spec":{"nodeName":"node-a",
		"initContainers":[{"name":"init","image":"busybox@sha256:0000000000000000000000000000000000000000000000000000000000000000","command":["true"]}],
		"containers":[{"name":"main","image":"nginx","ports":[{"containerPort":80},{"containerPort":53,"protocol":"UDP","name":"dns"}],
		"env":[{"name":"NODE","valueFrom":{"fieldRef":{"fieldPath":"spec.nodeName"}}}],
		"resources":{"limits":{"cpu":"500m","memory":"128Mi"}},
		"livenessProbe":{"httpGet":{"port":80}},"readinessProbe":{"tcpSocket":{"port":80},"periodSeconds":5},
		"volumeMounts":[{"name":"cache","mountPath":"/cache"},{"name":"cfg","mountPath":"/cfg"}]},
		{"name":"side","image":"registry.example.com:5000/tools/side:latest"}],
		"volumes":[{"name":"cache"},{"name":"cfg","configMap":{"name":"cfg"}},{"name":"sec","secret":{"secretName":"sec"}},
		{"name":"host","hostPath":{"path":"/tmp"}},
		{"name":"proj","projected":{"sources":[{"serviceAccountToken":{"path":"t"}},{"downwardAPI":{"items":[{"path":"labels","fieldRef":{"fieldPath":"metadata.labels"}}]}}]}}]}}`)
	c.post("create guaranteed pod", ns+"pods", `{"metadata":{"name":"guaranteed"},"spec":{"automountServiceAccountToken":false,"containers":[{"name":"c","image":"busybox:1","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}],"tolerations":[{"operator":"Exists"}]}}`)
	c.post("create deployment", apps+"deployments", `{"metadata":{"name":"recreate"},"spec":{"strategy":{"type":"Recreate"},"selector":{"matchLabels":{"app":"r"}},"template":{"metadata":{"labels":{"app":"r"}},"spec":{"serviceAccountName":"default","containers":[{"name":"c","image":"busybox:1"}]}}}}`)
	c.post("create statefulset", apps+"statefulsets", `{"metadata":{"name":"db"},"spec":{"serviceName":"db","selector":{"matchLabels":{"app":"db"}},"template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"c","image":"postgres:16"}]}},
		"volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}]}}`)
	c.post("create daemonset", apps+"daemonsets", `{"metadata":{"name":"agent"},"spec":{"selector":{"matchLabels":{"app":"agent"}},"template":{"metadata":{"labels":{"app":"agent"}},"spec":{"nodeSelector":{"kubernetes.io/os":"linux"},"containers":[{"name":"c","image":"agent:2"}]}}}}`)
	c.post("create replicaset", apps+"replicasets", `{"metadata":{"name":"rs"},"spec":{"selector":{"matchLabels":{"app":"rs"}},"template":{"metadata":{"labels":{"app":"rs"}},"spec":{"containers":[{"name":"c","image":"busybox:1"}]}}}}`)
	c.post("create job", batch+"jobs", `{"metadata":{"name":"once"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox:1"}]}}}}`)
	c.post("create cronjob", batch+"cronjobs", `{"metadata":{"name":"nightly"},"spec":{"schedule":"0 3 * * *","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"busybox:1"}]}}}}}}`)
	c.post("create replication controller", ns+"replicationcontrollers", `{"metadata":{"name":"rc"},"spec":{"template":{"metadata":{"labels":{"app":"rc"}},"spec":{"containers":[{"name":"c","image":"busybox:1"}]}}}}`)
	c.post("create pod template", ns+"podtemplates", `{"metadata":{"name":"pt"},"template":{"metadata":{"labels":{"app":"pt"}},"spec":{"containers":[{"name":"c","image":"busybox:1"}]}}}`)
	c.post("create service with named port", ns+"services", `{"metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"name":"http","port":80,"targetPort":"http"},{"name":"dns","port":53,"protocol":"UDP"}]}}`)
	c.post("create headless service", ns+"services", `{"metadata":{"name":"db"},"spec":{"clusterIP":"None","selector":{"app":"db"},"ports":[{"port":5432}]}}`)
	c.post("create external name service", ns+"services", `{"metadata":{"name":"ext"},"spec":{"type":"ExternalName","externalName":"example.com"}}`)
	c.post("create node port service", ns+"services", `{"metadata":{"name":"np"},"spec":{"type":"NodePort","selector":{"app":"np"},"ports":[{"port":8080}]}}`)
	c.post("create load balancer service", ns+"services", `{"metadata":{"name":"lb"},"spec":{"type":"LoadBalancer","sessionAffinity":"ClientIP","selector":{"app":"lb"},"ports":[{"port":443}]}}`)
	c.post("create configmap with binary data", ns+"configmaps", `{"metadata":{"name":"bin"},"data":{"a":"1"},"binaryData":{"b":"AAE="}}`)
	c.post("create secret with data and stringData", ns+"secrets", `{"metadata":{"name":"both"},"type":"kubernetes.io/basic-auth","data":{"username":"YQ=="},"stringData":{"password":"p"}}`)
	c.post("create claim", ns+"persistentvolumeclaims", `{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`)
	c.post("create volume", "/api/v1/persistentvolumes", `{"metadata":{"name":"fid-kinds-pv"},"spec":{"capacity":{"storage":"5Gi"},"accessModes":["ReadWriteOnce","ReadOnlyMany"],"hostPath":{"path":"/data"}}}`)
	c.post("create endpoints", ns+"endpoints", `{"metadata":{"name":"web"},"subsets":[{"addresses":[{"ip":"10.1.0.1"},{"ip":"10.1.0.2"}],"ports":[{"port":8080}]}]}`)
	c.post("create endpointslice", "/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices", `{"metadata":{"name":"web-1"},"addressType":"IPv4","endpoints":[{"addresses":["10.1.0.1"]}],"ports":[{"port":8080}]}`)
	c.post("create limit range", ns+"limitranges", `{"metadata":{"name":"limits"},"spec":{"limits":[{"type":"Container","max":{"cpu":"2"},"min":{"memory":"16Mi"}}]}}`)
	c.post("create event", ns+"events", `{"metadata":{"name":"ev"},"involvedObject":{"kind":"Pod","name":"full","namespace":"${ns}"},"reason":"Tested","message":"  made by the fidelity check  ","type":"Normal","source":{"component":"fidelity"}}`)
	c.post("create role binding", "/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings", `{"metadata":{"name":"rb"},"roleRef":{"kind":"Role","name":"r"},"subjects":[{"kind":"User","name":"alice"},{"kind":"ServiceAccount","name":"default","namespace":"${ns}"},{"kind":"Group","name":"devs"}]}`)
	c.post("create network policy", "/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies", `{"metadata":{"name":"np"},"spec":{"podSelector":{"matchLabels":{"app":"web"}},"ingress":[{"ports":[{"port":80}]}],"egress":[{}]}}`)
	c.post("create ingress", "/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses", `{"metadata":{"name":"web"},"spec":{"rules":[{"host":"a.example.com","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}}]}},{"host":"b.example.com"}],"tls":[{"hosts":["a.example.com"]}]}}`)
	c.post("create lease", "/apis/coordination.k8s.io/v1/namespaces/${ns}/leases", `{"metadata":{"name":"leader"},"spec":{"holderIdentity":"pod-1"}}`)
	c.post("create autoscaler", "/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers", `{"metadata":{"name":"web"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":5}}`)
	c.post("create disruption budget", "/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets", `{"metadata":{"name":"web"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}}}`)
	c.post("create storage class", "/apis/storage.k8s.io/v1/storageclasses", `{"metadata":{"name":"fid-kinds"},"provisioner":"example.com/disk"}`)
	c.post("create priority class", "/apis/scheduling.k8s.io/v1/priorityclasses", `{"metadata":{"name":"fid-kinds"},"value":1000}`)
	c.post("create ingress class", "/apis/networking.k8s.io/v1/ingressclasses", `{"metadata":{"name":"fid-kinds"},"spec":{"controller":"example.com/ingress","parameters":{"kind":"Params","name":"p"}}}`)
	c.post("create node", "/api/v1/nodes", `{"metadata":{"name":"fid-kinds-node","labels":{"node-role.kubernetes.io/worker":""}}}`)

	const table = "application/json;as=Table;v=v1;g=meta.k8s.io"
	for _, p := range []string{
		ns + "pods", apps + "deployments", apps + "statefulsets", apps + "daemonsets", apps + "replicasets",
		batch + "jobs", batch + "cronjobs", ns + "replicationcontrollers", ns + "podtemplates", ns + "services",
		ns + "configmaps", ns + "secrets", ns + "serviceaccounts", ns + "persistentvolumeclaims", ns + "endpoints",
		"/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices", ns + "events", ns + "limitranges",
		"/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings", "/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies",
		"/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses", "/apis/coordination.k8s.io/v1/namespaces/${ns}/leases",
		"/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers", "/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets",
	} {
		c.get("table of "+p[len(pathPrefix(p)):], p).accept(table)
	}
	for _, name := range []string{"persistentvolumes/fid-kinds-pv", "nodes/fid-kinds-node"} {
		c.get("table of "+name, "/api/v1/"+name).accept(table)
	}
	c.get("table of storage class", "/apis/storage.k8s.io/v1/storageclasses/fid-kinds").accept(table)
	c.get("table of priority class", "/apis/scheduling.k8s.io/v1/priorityclasses/fid-kinds").accept(table)

	c.del("delete bound pod", ns+"pods/full", "")
	c.get("bound pod terminating", ns+"pods/full")
	c.get("terminating pod as table", ns+"pods/full").accept(table)
	c.del("force delete", ns+"pods/full?gracePeriodSeconds=0", "")
	c.get("force deleted pod gone", ns+"pods/full")
	// Resources within the LimitRange, so that its admission (not run by
	// the fake) changes nothing: these rows are about binding and eviction.
	c.post("create unscheduled pod", ns+"pods", `{"metadata":{"name":"unbound"},"spec":{"containers":[{"name":"c","image":"busybox:1","resources":{"requests":{"cpu":"100m","memory":"32Mi"},"limits":{"cpu":"1","memory":"64Mi"}}}]}}`)
	smp := "application/strategic-merge-patch+json"
	c.patch("add an ephemeral container", ns+"pods/unbound/ephemeralcontainers", smp, `{"spec":{"ephemeralContainers":[{"name":"debugger","image":"busybox:1","stdin":true,"tty":true,"targetContainerName":"c"}]}}`)
	c.get("read ephemeral containers", ns+"pods/unbound/ephemeralcontainers")
	c.patch("ephemeral container with a taken name", ns+"pods/unbound/ephemeralcontainers", smp, `{"spec":{"ephemeralContainers":[{"name":"c","image":"busybox:1"}]}}`)
	c.patch("ephemeral container with a port and no image", ns+"pods/unbound/ephemeralcontainers", smp, `{"spec":{"ephemeralContainers":[{"name":"e2","ports":[{"containerPort":80}]}]}}`)
	c.patch("resize cpu", ns+"pods/unbound/resize", smp, `{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"200m"}}}]}}`)
	c.patch("resize another resource", ns+"pods/unbound/resize", smp, `{"spec":{"containers":[{"name":"c","resources":{"requests":{"ephemeral-storage":"1Gi"}}}]}}`)
	c.patch("resize removing a request", ns+"pods/unbound/resize", smp, `{"spec":{"containers":[{"name":"c","resources":{"requests":{"memory":null}}}]}}`)
	c.get("proxy to a pod without an address", ns+"pods/unbound/proxy/")
	c.get("proxy to a missing pod", ns+"pods/missing/proxy/healthz")
	c.get("proxy with a bad scheme", ns+"pods/ftp:unbound:80/proxy/")
	c.post("bind it", ns+"pods/unbound/binding", `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"unbound"},"target":{"kind":"Node","name":"node-b"}}`)
	c.post("bind it again", ns+"pods/unbound/binding", `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"unbound"},"target":{"kind":"Node","name":"node-c"}}`)
	c.get("bound pod", ns+"pods/unbound")
	c.patch("pod status podIP alone", ns+"pods/unbound/status", ctMerge, `{"status":{"podIP":"10.0.0.7"}}`)
	c.patch("pod status podIP unlike podIPs", ns+"pods/unbound/status", ctMerge, `{"status":{"podIP":"10.0.0.9","podIPs":[{"ip":"10.0.0.8"}]}}`)
	c.post("evict it", ns+"pods/unbound/eviction", `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"unbound"}}`)
	c.get("evicted pod terminating", ns+"pods/unbound")
	c.post("evict a missing pod", ns+"pods/missing/eviction", `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"missing"}}`)
	c.post("request a token", ns+"serviceaccounts/default/token", `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{}}`)
	c.post("review a token that is no JWT", "/apis/authentication.k8s.io/v1/tokenreviews", `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":"not-a-token"}}`)
	c.post("review a JWT no key signed", "/apis/authentication.k8s.io/v1/tokenreviews", `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":"eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2t1YmVybmV0ZXMuZGVmYXVsdC5zdmMifQ.c2ln","audiences":["vault"]}}`)
	c.post("request a token for a missing account", ns+"serviceaccounts/missing/token", `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":600}}`)
	c.del("delete job without policy", batch+"jobs/once", "")
	c.del("delete claim", ns+"persistentvolumeclaims/data", "")
	c.del("delete volume", "/api/v1/persistentvolumes/fid-kinds-pv", "")
	c.del("delete storage class", "/apis/storage.k8s.io/v1/storageclasses/fid-kinds", "")
	c.del("delete priority class", "/apis/scheduling.k8s.io/v1/priorityclasses/fid-kinds", "")
	c.del("delete ingress class", "/apis/networking.k8s.io/v1/ingressclasses/fid-kinds", "")
	c.del("delete node", "/api/v1/nodes/fid-kinds-node", "")
}

// pathPrefix is a collection path up to its resource name.
func pathPrefix(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[:i+1]
		}
	}
	return ""
}
