package crgen

import (
	"fmt"
	"strconv"
)

// rollout is an Argo Rollouts Rollout of a service team's Deployment,
// applied by Helm and progressed by the controller: a pod template of
// one or two containers (image, ports, 8-14 env vars, some from secrets
// and the downward API, requests and limits, probes with named and
// numbered ports, volume mounts, security contexts), volumes, affinity
// and tolerations; a canary strategy of weight, pause (a duration string
// or seconds) and analysis steps with IntOrString maxSurge and
// maxUnavailable and NGINX routing; a status with four conditions,
// canary weights and the step reached.
func rollout(i int) map[string]any {
	svc := fmt.Sprintf("shop-%d", i%50)
	ns := Namespaces()[i%20]
	name := fmt.Sprintf("%s-%05d", svc, i)
	team := fmt.Sprintf("team-%d", i%20)
	version := "1.12." + strconv.Itoa(i%4)
	image := "registry.example.com/shop/" + svc + ":" + version
	podLabels := map[string]any{"app.kubernetes.io/name": svc, "app.kubernetes.io/instance": name, "app.kubernetes.io/version": version}
	env := []any{
		map[string]any{"name": "SERVICE_NAME", "value": svc},
		map[string]any{"name": "LOG_LEVEL", "value": []string{"info", "debug", "warn"}[i%3]},
		map[string]any{"name": "HTTP_PORT", "value": "8080"},
		map[string]any{"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector.observability.svc.cluster.local:4317"},
		map[string]any{"name": "DATABASE_URL", "valueFrom": map[string]any{"secretKeyRef": map[string]any{"name": svc + "-db", "key": "url"}}},
		map[string]any{"name": "API_TOKEN", "valueFrom": map[string]any{"secretKeyRef": map[string]any{"name": svc + "-api", "key": "token", "optional": true}}},
		map[string]any{"name": "POD_NAME", "valueFrom": map[string]any{"fieldRef": map[string]any{"apiVersion": "v1", "fieldPath": "metadata.name"}}},
		map[string]any{"name": "POD_IP", "valueFrom": map[string]any{"fieldRef": map[string]any{"apiVersion": "v1", "fieldPath": "status.podIP"}}},
		map[string]any{"name": "GOMAXPROCS", "valueFrom": map[string]any{"resourceFieldRef": map[string]any{"resource": "limits.cpu", "divisor": "1"}}},
	}
	for e := 0; e < i%6; e++ {
		env = append(env, map[string]any{"name": fmt.Sprintf("FEATURE_FLAG_%d", e), "value": strconv.FormatBool((i+e)%2 == 0)})
	}
	limits := map[string]any{"cpu": "1", "memory": "512Mi"}
	if i%3 == 0 {
		limits["cpu"] = "2"
	}
	app := map[string]any{
		"name": svc, "image": image, "imagePullPolicy": "IfNotPresent",
		"args":           []any{"--http-port=8080", "--metrics-port=9090", "--shutdown-grace=20s"},
		"ports":          []any{map[string]any{"name": "http", "containerPort": int64(8080), "protocol": "TCP"}, map[string]any{"name": "metrics", "containerPort": int64(9090), "protocol": "TCP"}},
		"env":            env,
		"envFrom":        []any{map[string]any{"configMapRef": map[string]any{"name": svc + "-config"}}},
		"resources":      map[string]any{"requests": map[string]any{"cpu": []string{"100m", "250m", "500m"}[i%3], "memory": "256Mi"}, "limits": limits},
		"readinessProbe": map[string]any{"httpGet": map[string]any{"path": "/readyz", "port": "http", "scheme": "HTTP"}, "periodSeconds": int64(5), "timeoutSeconds": int64(1), "successThreshold": int64(1), "failureThreshold": int64(3)},
		"livenessProbe":  map[string]any{"httpGet": map[string]any{"path": "/healthz", "port": int64(8080), "scheme": "HTTP"}, "initialDelaySeconds": int64(10), "periodSeconds": int64(10), "timeoutSeconds": int64(1), "successThreshold": int64(1), "failureThreshold": int64(3)},
		"lifecycle":      map[string]any{"preStop": map[string]any{"exec": map[string]any{"command": []any{"/bin/sh", "-c", "sleep 5"}}}},
		"volumeMounts":   []any{map[string]any{"name": "config", "mountPath": "/etc/" + svc, "readOnly": true}, map[string]any{"name": "tmp", "mountPath": "/tmp"}},
		"securityContext": map[string]any{"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true, "runAsNonRoot": true, "runAsUser": int64(10001),
			"capabilities": map[string]any{"drop": []any{"ALL"}}},
		"terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
	}
	containers := []any{app}
	if i%2 == 0 {
		containers = append(containers, map[string]any{
			"name": "envoy", "image": "envoyproxy/envoy:v1.31.2", "args": []any{"-c", "/etc/envoy/envoy.yaml", "--log-level", "warn"},
			"ports":          []any{map[string]any{"name": "proxy", "containerPort": int64(15001), "protocol": "TCP"}},
			"resources":      map[string]any{"requests": map[string]any{"cpu": "50m", "memory": "64Mi"}, "limits": map[string]any{"memory": "128Mi"}},
			"readinessProbe": map[string]any{"tcpSocket": map[string]any{"port": int64(15001)}, "periodSeconds": int64(10)},
			"volumeMounts":   []any{map[string]any{"name": "envoy-config", "mountPath": "/etc/envoy", "readOnly": true}},
		})
	}
	volumes := []any{
		map[string]any{"name": "config", "configMap": map[string]any{"name": svc + "-config", "defaultMode": int64(420)}},
		map[string]any{"name": "tmp", "emptyDir": map[string]any{"sizeLimit": "256Mi"}},
	}
	if i%2 == 0 {
		volumes = append(volumes, map[string]any{"name": "envoy-config", "configMap": map[string]any{"name": "envoy-" + svc, "items": []any{map[string]any{"key": "envoy.yaml", "path": "envoy.yaml"}}}})
	}
	podSpec := map[string]any{
		"serviceAccountName": svc, "terminationGracePeriodSeconds": int64(30), "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler",
		"containers": containers, "volumes": volumes,
		"securityContext": map[string]any{"fsGroup": int64(10001), "seccompProfile": map[string]any{"type": "RuntimeDefault"}},
		"affinity": map[string]any{"podAntiAffinity": map[string]any{"preferredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{
			"weight": int64(100), "podAffinityTerm": map[string]any{"topologyKey": "kubernetes.io/hostname", "labelSelector": map[string]any{"matchLabels": map[string]any{"app.kubernetes.io/name": svc}}},
		}}}},
		"topologySpreadConstraints": []any{map[string]any{"maxSkew": int64(1), "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway",
			"labelSelector": map[string]any{"matchLabels": map[string]any{"app.kubernetes.io/name": svc}}}},
		"nodeSelector": map[string]any{"kubernetes.io/os": "linux"},
	}
	if i%4 == 1 {
		podSpec["tolerations"] = []any{map[string]any{"key": "dedicated", "operator": "Equal", "value": "shop", "effect": "NoSchedule"}}
	}
	canary := int64(10 + i%3*10)
	pause := any("10m")
	if i%2 == 1 {
		pause = int64(300) // seconds: the IntOrString's integer half
	}
	analysis := map[string]any{
		"templates": []any{map[string]any{"templateName": "success-rate"}, map[string]any{"templateName": "latency-p99", "clusterScope": true}},
		"args": []any{
			map[string]any{"name": "service-name", "value": svc + "-canary." + ns + ".svc.cluster.local"},
			map[string]any{"name": "namespace", "valueFrom": map[string]any{"fieldRef": map[string]any{"fieldPath": "metadata.namespace"}}},
		},
	}
	steps := []any{
		map[string]any{"setWeight": canary},
		map[string]any{"pause": map[string]any{"duration": pause}},
		map[string]any{"analysis": analysis},
		map[string]any{"setWeight": int64(50)},
		map[string]any{"pause": map[string]any{"duration": "5m"}},
		map[string]any{"setCanaryScale": map[string]any{"matchTrafficWeight": true}},
		map[string]any{"setWeight": int64(100)},
		map[string]any{"pause": map[string]any{}},
	}
	strategy := map[string]any{"canary": map[string]any{
		"canaryService": svc + "-canary", "stableService": svc + "-stable", "steps": steps,
		"maxSurge": "25%", "maxUnavailable": int64(0), "scaleDownDelaySeconds": int64(30),
		"trafficRouting": map[string]any{"nginx": map[string]any{"stableIngress": svc, "additionalIngressAnnotations": map[string]any{"canary-by-header": "X-Canary"}}},
		"analysis":       map[string]any{"templates": []any{map[string]any{"templateName": "error-budget"}}, "startingStep": int64(2), "args": []any{map[string]any{"name": "service-name", "value": svc}}},
		"canaryMetadata": map[string]any{"labels": map[string]any{"role": "canary"}},
		"stableMetadata": map[string]any{"labels": map[string]any{"role": "stable"}},
	}}
	replicas := int64(2 + i%5)
	hash := fmt.Sprintf("%x", 0x5c4d9f7b+uint32(i%13)*0x1f3)
	created := i % 10000
	status := map[string]any{
		"HPAReplicas": replicas, "replicas": replicas, "updatedReplicas": int64(1), "readyReplicas": replicas, "availableReplicas": replicas,
		"currentPodHash": hash, "currentStepHash": "7f9c6d5b8", "currentStepIndex": int64(1 + i%4), "stableRS": fmt.Sprintf("%x", 0x6b8f7c9d+uint32(i%11)*0x2e1),
		"observedGeneration": strconv.Itoa(1 + i%9), "phase": "Paused", "message": "CanaryPauseStep",
		"selector":        "app.kubernetes.io/instance=" + name + ",app.kubernetes.io/name=" + svc + ",app.kubernetes.io/version=" + version,
		"controllerPause": true,
		"pauseConditions": []any{map[string]any{"reason": "CanaryPauseStep", "startTime": stamp(created + 30)}},
		"canary": map[string]any{
			"weights": map[string]any{
				"canary": map[string]any{"weight": canary, "serviceName": svc + "-canary", "podTemplateHash": hash},
				"stable": map[string]any{"weight": 100 - canary, "serviceName": svc + "-stable", "podTemplateHash": "6b8f7c9d4"},
			},
			"currentBackgroundAnalysisRunStatus": map[string]any{"name": name + "-" + hash + "-2", "status": "Running"},
		},
		"conditions": []any{
			rolloutCondition("Available", "True", "AvailableReason", "Rollout has minimum availability", created+1),
			rolloutCondition("Progressing", "True", "RolloutPaused", "Rollout is paused", created+30),
			rolloutCondition("Paused", "True", "RolloutPaused", "Rollout is paused", created+30),
			rolloutCondition("Healthy", "False", "RolloutHealthy", "Rollout does not have minimum availability", created+30),
		},
	}
	labels := map[string]any{
		"app.kubernetes.io/name": svc, "app.kubernetes.io/instance": name, "app.kubernetes.io/managed-by": "Helm",
		"app.kubernetes.io/part-of": "shop", "helm.sh/chart": "shop-service-" + version, "team": team,
	}
	meta := map[string]any{
		"name": name, "namespace": ns, "labels": labels,
		"annotations": map[string]any{"meta.helm.sh/release-name": name, "meta.helm.sh/release-namespace": ns, "rollout.argoproj.io/revision": strconv.Itoa(1 + i%9)},
		"managedFields": []any{
			managedEntry("helm", "Update", "argoproj.io/v1alpha1", stamp(created), "", map[string]any{
				"f:metadata": map[string]any{"f:annotations": fieldSet(".", "f:meta.helm.sh/release-name", "f:meta.helm.sh/release-namespace"), "f:labels": fieldSet(".", "f:app.kubernetes.io/instance", "f:app.kubernetes.io/managed-by", "f:app.kubernetes.io/name", "f:app.kubernetes.io/part-of", "f:helm.sh/chart", "f:team")},
				"f:spec":     fieldSet(".", "f:replicas", "f:revisionHistoryLimit", "f:selector", "f:strategy", "f:template"),
			}),
			managedEntry("rollouts-controller", "Update", "argoproj.io/v1alpha1", stamp(created+30), "status", map[string]any{
				"f:status": fieldSet(".", "f:HPAReplicas", "f:availableReplicas", "f:canary", "f:conditions", "f:currentPodHash", "f:currentStepHash", "f:currentStepIndex", "f:message", "f:observedGeneration", "f:pauseConditions", "f:phase", "f:readyReplicas", "f:replicas", "f:selector", "f:stableRS", "f:updatedReplicas"),
			}),
		},
	}
	spec := map[string]any{
		"replicas": replicas, "revisionHistoryLimit": int64(5), "progressDeadlineSeconds": int64(600),
		"selector": map[string]any{"matchLabels": map[string]any{"app.kubernetes.io/name": svc, "app.kubernetes.io/instance": name}},
		"template": map[string]any{
			"metadata": map[string]any{"labels": podLabels, "annotations": map[string]any{"prometheus.io/scrape": "true", "prometheus.io/port": "9090", "checksum/config": fmt.Sprintf("%064x", uint64(i%17)*0x9e3779b97f4a7c15)}},
			"spec":     podSpec,
		},
		"strategy": strategy,
	}
	return map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout", "metadata": meta, "spec": spec, "status": status}
}

func rolloutCondition(typ, status, reason, message string, minutes int) map[string]any {
	return map[string]any{"type": typ, "status": status, "reason": reason, "message": message,
		"lastUpdateTime": stamp(minutes), "lastTransitionTime": stamp(minutes)}
}
