package crgen

import (
	"fmt"
	"strconv"
)

// podRule is one of the rules of the Kyverno policy library, written for
// Pods, with the variations a platform team makes (v: its variant, tag:
// the team or registry it names). Its pattern, patch and conditions are
// free-form JSON.
func podRule(kind, v int, tag string) map[string]any {
	match := func(kinds ...any) map[string]any {
		return map[string]any{"any": []any{map[string]any{"resources": map[string]any{"kinds": kinds}}}}
	}
	exclude := map[string]any{"any": []any{map[string]any{"resources": map[string]any{"namespaces": []any{"kube-system", "kyverno", "monitoring"}}},
		map[string]any{"clusterRoles": []any{"cluster-admin"}}}}
	switch kind % 5 {
	case 0:
		return map[string]any{"name": "privileged-containers-" + strconv.Itoa(v), "match": match("Pod"), "exclude": exclude,
			"validate": map[string]any{
				"message": "Privileged mode is disallowed. The fields spec.containers[*].securityContext.privileged and spec.initContainers[*].securityContext.privileged must be unset or set to `false`.",
				"pattern": map[string]any{"spec": map[string]any{
					"=(ephemeralContainers)": []any{map[string]any{"=(securityContext)": map[string]any{"=(privileged)": "false"}}},
					"=(initContainers)":      []any{map[string]any{"=(securityContext)": map[string]any{"=(privileged)": "false"}}},
					"containers":             []any{map[string]any{"=(securityContext)": map[string]any{"=(privileged)": "false", "=(allowPrivilegeEscalation)": false}}},
				}},
			}}
	case 1:
		return map[string]any{"name": "validate-registries-" + strconv.Itoa(v), "match": match("Pod"),
			"validate": map[string]any{
				"message": "Images may only come from registry.example.com/" + tag + " or the mirror.",
				"pattern": map[string]any{"spec": map[string]any{
					"=(initContainers)": []any{map[string]any{"image": "registry.example.com/" + tag + "/* | mirror.example.com/*"}},
					"containers":        []any{map[string]any{"image": "registry.example.com/" + tag + "/* | mirror.example.com/*", "imagePullPolicy": "IfNotPresent | Always"}},
				}},
			}}
	case 2:
		return map[string]any{"name": "add-default-resources-" + strconv.Itoa(v), "match": match("Pod"),
			"preconditions": map[string]any{"all": []any{map[string]any{"key": "{{ request.operation || 'BACKGROUND' }}", "operator": "AnyIn", "value": []any{"CREATE", "UPDATE"}}}},
			"mutate": map[string]any{"patchStrategicMerge": map[string]any{"spec": map[string]any{
				"terminationGracePeriodSeconds": 30 + v%3*15,
				"automountServiceAccountToken":  false,
				"containers": []any{map[string]any{"(name)": "*", "resources": map[string]any{
					"requests": map[string]any{"+(memory)": "128Mi", "+(cpu)": "100m"},
					"limits":   map[string]any{"+(memory)": strconv.Itoa(256<<(v%3)) + "Mi"},
				}}},
			}}}}
	case 3:
		return map[string]any{"name": "require-team-label-" + strconv.Itoa(v), "match": match("Pod"),
			"context": []any{map[string]any{"name": "nslabels", "apiCall": map[string]any{"urlPath": "/api/v1/namespaces/{{ request.namespace }}", "jmesPath": "metadata.labels"}}},
			"validate": map[string]any{
				"message": "The label `team` is required and must match the namespace's (" + tag + ").",
				"deny": map[string]any{"conditions": map[string]any{"any": []any{
					map[string]any{"key": "{{ request.object.metadata.labels.team || '' }}", "operator": "NotEquals", "value": "{{ nslabels.team }}"},
					map[string]any{"key": "{{ length(request.object.spec.containers) }}", "operator": "GreaterThan", "value": 8 + v%4},
				}}},
			}}
	}
	return map[string]any{"name": "run-as-non-root-" + strconv.Itoa(v), "match": match("Pod"), "exclude": exclude,
		"validate": map[string]any{
			"message": "Running as root is not allowed. Either the field spec.securityContext.runAsNonRoot or every container's must be true.",
			"anyPattern": []any{
				map[string]any{"spec": map[string]any{"securityContext": map[string]any{"runAsNonRoot": true, "=(runAsUser)": ">0"},
					"containers": []any{map[string]any{"=(securityContext)": map[string]any{"=(runAsNonRoot)": true}}}}},
				map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"securityContext": map[string]any{"runAsNonRoot": true, "=(runAsUser)": ">0"}}}}},
			},
		}}
}

// autogen is rule rewritten by Kyverno for Pod controllers: for the
// workload kinds (the Pod under spec.template) or for CronJobs (under
// spec.jobTemplate.spec.template).
func autogen(rule map[string]any, cron bool) map[string]any {
	wrap := func(v any) any { return map[string]any{"spec": map[string]any{"template": v}} }
	kinds := []any{"DaemonSet", "Deployment", "Job", "ReplicaSet", "ReplicationController", "StatefulSet"}
	prefix := "autogen-"
	if cron {
		wrap = func(v any) any {
			return map[string]any{"spec": map[string]any{"jobTemplate": map[string]any{"spec": map[string]any{"template": v}}}}
		}
		kinds, prefix = []any{"CronJob"}, "autogen-cronjob-"
	}
	out := map[string]any{}
	for k, v := range rule {
		out[k] = v
	}
	out["name"] = prefix + rule["name"].(string)
	out["match"] = map[string]any{"any": []any{map[string]any{"resources": map[string]any{"kinds": kinds}}}}
	if val, ok := rule["validate"].(map[string]any); ok {
		nv := map[string]any{}
		for k, v := range val {
			nv[k] = v
		}
		if p, ok := val["pattern"].(map[string]any); ok {
			nv["pattern"] = wrap(p)
		}
		if ap, ok := val["anyPattern"].([]any); ok {
			w := make([]any, len(ap))
			for j, p := range ap {
				w[j] = wrap(p)
			}
			nv["anyPattern"] = w
		}
		out["validate"] = nv
	}
	if m, ok := rule["mutate"].(map[string]any); ok {
		out["mutate"] = map[string]any{"patchStrategicMerge": wrap(m["patchStrategicMerge"])}
	}
	return out
}

// clusterPolicy is a platform team's Kyverno ClusterPolicy: 2-5 rules
// from the policy library (validation patterns, deny conditions with an
// API call, a strategic-merge patch), and a status that holds each
// rule's two autogen copies, Ready, and the rule counts.
func clusterPolicy(i int) map[string]any {
	team := fmt.Sprintf("team-%d", i%20)
	name := fmt.Sprintf("%s-baseline-%05d", team, i)
	n := 2 + i%4
	rules := make([]any, n)
	var gen []any
	counts := map[string]int64{"validate": 0, "mutate": 0, "generate": 0, "verifyimages": 0}
	for r := range rules {
		rule := podRule(i/7+r, i%11, team)
		rules[r] = rule
		gen = append(gen, autogen(rule, false), autogen(rule, true))
		if _, ok := rule["mutate"]; ok {
			counts["mutate"]++
		} else {
			counts["validate"]++
		}
	}
	rulecount := map[string]any{}
	for k, v := range counts {
		rulecount[k] = v
	}
	created := i % 10000
	action := []string{"Enforce", "Audit"}[i%2]
	meta := map[string]any{
		"name":   name,
		"labels": map[string]any{"app.kubernetes.io/managed-by": "argocd", "policies.kyverno.io/team": team},
		"annotations": map[string]any{
			"policies.kyverno.io/title":       "Baseline for " + team,
			"policies.kyverno.io/category":    "Pod Security Standards (Baseline)",
			"policies.kyverno.io/severity":    []string{"medium", "high"}[i%2],
			"policies.kyverno.io/subject":     "Pod",
			"kyverno.io/kyverno-version":      "1.13.0",
			"kyverno.io/kubernetes-version":   "1.30-1.36",
			"policies.kyverno.io/description": "Baseline rules " + team + " applies to every Pod: no privileged containers, images from the team's registry, resource defaults, the team label and non-root users.",
		},
		"managedFields": []any{
			managedEntry("argocd-controller", "Apply", "kyverno.io/v1", stamp(created), "", map[string]any{
				"f:metadata": map[string]any{"f:annotations": fieldSet("f:kyverno.io/kubernetes-version", "f:kyverno.io/kyverno-version", "f:policies.kyverno.io/category",
					"f:policies.kyverno.io/description", "f:policies.kyverno.io/severity", "f:policies.kyverno.io/subject", "f:policies.kyverno.io/title"),
					"f:labels": fieldSet("f:app.kubernetes.io/managed-by", "f:policies.kyverno.io/team")},
				"f:spec": fieldSet("f:background", "f:rules", "f:validationFailureAction"),
			}),
			managedEntry("kyverno", "Update", "kyverno.io/v1", stamp(created+1), "status", map[string]any{
				"f:status": map[string]any{".": map[string]any{}, "f:autogen": fieldSet(".", "f:rules"), "f:conditions": map[string]any{}, "f:rulecount": fieldSet(".", "f:generate", "f:mutate", "f:validate", "f:verifyimages")},
			}),
		},
	}
	spec := map[string]any{"validationFailureAction": action, "background": true, "admission": true, "rules": rules}
	if i%3 == 0 {
		spec["webhookTimeoutSeconds"] = int64(15)
		spec["failurePolicy"] = "Ignore"
	}
	status := map[string]any{
		"conditions": []any{map[string]any{"type": "Ready", "status": "True", "reason": "Succeeded", "message": "Ready",
			"lastTransitionTime": stamp(created + 1), "observedGeneration": int64(1)}},
		"autogen":   map[string]any{"rules": gen},
		"rulecount": rulecount,
	}
	return map[string]any{"apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy", "metadata": meta, "spec": spec, "status": status}
}
