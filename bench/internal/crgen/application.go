package crgen

import (
	"fmt"
	"strconv"
)

// appKinds are the kinds a Helm chart of a web service deploys, in the
// order Argo CD lists them (group, version, kind, whether it has health).
var appKinds = [...]struct {
	group, version, kind string
	health               bool
}{
	{"", "v1", "ConfigMap", false},
	{"", "v1", "Secret", false},
	{"", "v1", "Service", true},
	{"", "v1", "ServiceAccount", false},
	{"apps", "v1", "Deployment", true},
	{"autoscaling", "v2", "HorizontalPodAutoscaler", true},
	{"batch", "v1", "CronJob", true},
	{"monitoring.coreos.com", "v1", "ServiceMonitor", false},
	{"networking.k8s.io", "v1", "Ingress", true},
	{"policy", "v1", "PodDisruptionBudget", true},
	{"rbac.authorization.k8s.io", "v1", "Role", false},
	{"rbac.authorization.k8s.io", "v1", "RoleBinding", false},
}

// application is an Argo CD Application of a Helm chart, synced
// automatically and healthy: its status lists 50-200 resources (each
// small, kinds and groups from a short list, names its own), its history
// repeats the source (Helm values included) once per past sync, and its
// last sync's result lists the resources that sync changed.
func application(i int) map[string]any {
	svc := fmt.Sprintf("shop-%d", i%50)
	name := fmt.Sprintf("%s-%05d", svc, i)
	ns := Namespaces()[i%20]
	dest := "shop-" + strconv.Itoa(i)
	created := i % 10000
	source := func(r int) map[string]any {
		params := []any{
			map[string]any{"name": "image.tag", "value": "v2." + strconv.Itoa(i%9) + "." + strconv.Itoa(r)},
			map[string]any{"name": "replicaCount", "value": strconv.Itoa(2 + i%4)},
			map[string]any{"name": "ingress.hosts[0].host", "value": name + ".shop.example.com"},
			map[string]any{"name": "resources.requests.cpu", "value": "250m"},
			map[string]any{"name": "resources.requests.memory", "value": "512Mi"},
			map[string]any{"name": "podAnnotations.prometheus\\.io/scrape", "value": "true", "forceString": true},
		}
		if i%3 == 0 {
			params = append(params, map[string]any{"name": "autoscaling.enabled", "value": "true"},
				map[string]any{"name": "autoscaling.maxReplicas", "value": strconv.Itoa(10 + i%10)})
		}
		return map[string]any{
			"repoURL": "https://charts.example.com/shop", "chart": svc, "targetRevision": "1.12." + strconv.Itoa(i%4),
			"helm": map[string]any{
				"releaseName": name, "valueFiles": []any{"values.yaml", "values-prod.yaml"},
				"parameters": params, "values": helmValues(svc, name, ns, i),
			},
		}
	}
	destination := map[string]any{"server": "https://kubernetes.default.svc", "namespace": dest}
	n := 50 + (i*37)%151
	resources := make([]any, n)
	var changed []any
	images := []any{"registry.example.com/shop/" + svc + ":v2." + strconv.Itoa(i%9) + ".0"}
	for r := range resources {
		k := appKinds[r%len(appKinds)]
		rname := fmt.Sprintf("%s-%s-%d", name, []string{"api", "worker", "web", "cron", "cache"}[r/len(appKinds)%5], r/len(appKinds))
		e := map[string]any{"kind": k.kind, "name": rname, "namespace": dest, "status": "Synced", "version": k.version}
		if k.group != "" {
			e["group"] = k.group
		}
		if k.health {
			e["health"] = map[string]any{"status": "Healthy"}
		}
		if k.kind == "CronJob" && r%5 == 0 {
			e["syncWave"] = int64(-1)
		}
		resources[r] = e
		if r%9 == i%9 {
			changed = append(changed, map[string]any{"group": k.group, "version": k.version, "kind": k.kind, "namespace": dest, "name": rname,
				"status": "Synced", "message": fmt.Sprintf("%s/%s configured", lowerKind(k.kind, k.group), rname), "syncPhase": "Sync", "hookPhase": "Running"})
		}
	}
	past := 1 + i%5
	history := make([]any, past)
	for h := range history {
		history[h] = map[string]any{
			"revision": "1.12." + strconv.Itoa(i%4), "id": int64(h), "source": source(h),
			"deployStartedAt": stamp(created + h*60), "deployedAt": stamp(created + h*60 + 1),
			"initiatedBy": map[string]any{"automated": true},
		}
	}
	last := past - 1
	meta := map[string]any{
		"name": name, "namespace": ns,
		"labels": map[string]any{"app.kubernetes.io/instance": "shop-apps", "team": fmt.Sprintf("team-%d", i%20), "env": "prod"},
		"annotations": map[string]any{
			"notifications.argoproj.io/subscribe.on-sync-failed.slack": fmt.Sprintf("team-%d-alerts", i%20),
			"argocd.argoproj.io/sync-wave":                             strconv.Itoa(i % 3),
		},
		"finalizers": []any{"resources-finalizer.argocd.argoproj.io"},
		"managedFields": []any{
			managedEntry("argocd-controller", "Apply", "argoproj.io/v1alpha1", stamp(created), "", map[string]any{
				"f:metadata": map[string]any{
					"f:annotations": fieldSet("f:argocd.argoproj.io/sync-wave", "f:notifications.argoproj.io/subscribe.on-sync-failed.slack"),
					"f:finalizers":  fieldSet(`v:"resources-finalizer.argocd.argoproj.io"`),
					"f:labels":      fieldSet("f:app.kubernetes.io/instance", "f:env", "f:team"),
				},
				"f:spec": map[string]any{
					"f:destination": fieldSet("f:namespace", "f:server"), "f:project": map[string]any{}, "f:revisionHistoryLimit": map[string]any{},
					"f:source":     map[string]any{"f:chart": map[string]any{}, "f:helm": fieldSet("f:parameters", "f:releaseName", "f:valueFiles", "f:values"), "f:repoURL": map[string]any{}, "f:targetRevision": map[string]any{}},
					"f:syncPolicy": map[string]any{"f:automated": fieldSet("f:prune", "f:selfHeal"), "f:retry": fieldSet("f:backoff", "f:limit"), "f:syncOptions": map[string]any{}},
				},
			}),
			managedEntry("argocd-application-controller", "Update", "argoproj.io/v1alpha1", stamp(created+last*60+1), "", map[string]any{
				"f:status": map[string]any{
					".": map[string]any{}, "f:controllerNamespace": map[string]any{}, "f:health": fieldSet(".", "f:lastTransitionTime", "f:status"),
					"f:history": map[string]any{}, "f:operationState": map[string]any{".": map[string]any{}, "f:finishedAt": map[string]any{}, "f:message": map[string]any{},
						"f:operation": map[string]any{}, "f:phase": map[string]any{}, "f:startedAt": map[string]any{}, "f:syncResult": map[string]any{}},
					"f:reconciledAt": map[string]any{}, "f:resources": map[string]any{}, "f:sourceType": map[string]any{}, "f:summary": map[string]any{},
					"f:sync": fieldSet(".", "f:comparedTo", "f:revision", "f:status"),
				},
			}),
		},
	}
	spec := map[string]any{
		"project": fmt.Sprintf("team-%d", i%20), "source": source(last), "destination": destination,
		"syncPolicy": map[string]any{
			"automated":   map[string]any{"prune": true, "selfHeal": true},
			"syncOptions": []any{"CreateNamespace=true", "ServerSideApply=true", "PruneLast=true"},
			"retry":       map[string]any{"limit": int64(5), "backoff": map[string]any{"duration": "5s", "factor": int64(2), "maxDuration": "3m"}},
		},
		"revisionHistoryLimit": int64(10),
	}
	if i%4 == 0 {
		spec["ignoreDifferences"] = []any{map[string]any{"group": "apps", "kind": "Deployment", "jsonPointers": []any{"/spec/replicas"}}}
	}
	operation := map[string]any{
		"sync":        map[string]any{"revision": "1.12." + strconv.Itoa(i%4), "syncOptions": []any{"CreateNamespace=true", "ServerSideApply=true", "PruneLast=true"}},
		"initiatedBy": map[string]any{"automated": true}, "retry": map[string]any{"limit": int64(5)},
	}
	status := map[string]any{
		"resources": resources,
		"sync":      map[string]any{"status": "Synced", "revision": "1.12." + strconv.Itoa(i%4), "comparedTo": map[string]any{"source": source(last), "destination": destination}},
		"health":    map[string]any{"status": "Healthy", "lastTransitionTime": stamp(created + last*60 + 2)},
		"history":   history,
		"operationState": map[string]any{
			"operation": operation, "phase": "Succeeded", "message": "successfully synced (all tasks run)",
			"startedAt": stamp(created + last*60), "finishedAt": stamp(created + last*60 + 1),
			"syncResult": map[string]any{"resources": changed, "revision": "1.12." + strconv.Itoa(i%4), "source": source(last)},
		},
		"reconciledAt": stamp(created + 600 + i%60), "sourceType": "Helm", "controllerNamespace": "argocd",
		"summary": map[string]any{"images": images, "externalURLs": []any{"https://" + name + ".shop.example.com/"}},
	}
	return map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "Application", "metadata": meta, "spec": spec, "status": status}
}

// lowerKind is kubectl's resource.group spelling in a sync message.
func lowerKind(kind, group string) string {
	b := []byte(kind)
	for j, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[j] = c + 'a' - 'A'
		}
	}
	if group == "" {
		return string(b)
	}
	return string(b) + "." + group
}

// helmValues is a values.yaml written inline in the Application, about
// 1.5 KB: the same structure for every service, with its own names.
func helmValues(svc, name, ns string, i int) string {
	return fmt.Sprintf(`fullnameOverride: %[2]s
image:
  repository: registry.example.com/shop/%[1]s
  pullPolicy: IfNotPresent
serviceAccount:
  create: true
  annotations:
    eks.amazonaws.com/role-arn: arn:aws:iam::123456789012:role/%[2]s
podSecurityContext:
  runAsNonRoot: true
  runAsUser: 10001
  fsGroup: 10001
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: ["ALL"]
service:
  type: ClusterIP
  port: 8080
ingress:
  enabled: true
  className: nginx
  annotations:
    cert-manager.io/cluster-issuer: letsencrypt-prod
    nginx.ingress.kubernetes.io/proxy-body-size: 16m
  tls:
    - secretName: %[2]s-tls
      hosts: [%[2]s.shop.example.com]
env:
  - name: DATABASE_URL
    valueFrom:
      secretKeyRef: {name: %[2]s-db, key: url}
  - name: OTEL_EXPORTER_OTLP_ENDPOINT
    value: http://otel-collector.observability:4317
  - name: SHOP_NAMESPACE
    value: %[3]s
  - name: SHOP_SHARD
    value: "%[4]d"
nodeSelector:
  kubernetes.io/arch: amd64
tolerations:
  - key: workload
    operator: Equal
    value: shop
    effect: NoSchedule
affinity:
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          topologyKey: topology.kubernetes.io/zone
          labelSelector:
            matchLabels: {app.kubernetes.io/name: %[1]s}
`, svc, name, ns, i%16)
}
