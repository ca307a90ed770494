package crgen

import (
	"fmt"
	"strconv"
	"strings"
)

// alertTemplates are the alerts a service team writes, as
// (name, severity, for, expression, summary, description); %[1]s is the
// job, %[2]s the namespace, %[3]s a route or queue.
var alertTemplates = [...][6]string{
	{"HighErrorRate", "critical", "10m", "sum by (job, namespace, route) (rate(http_requests_total{job=\"%[1]s\",namespace=\"%[2]s\",route=\"%[3]s\",code=~\"5..\"}[5m]))\n  /\nsum by (job, namespace, route) (rate(http_requests_total{job=\"%[1]s\",namespace=\"%[2]s\",route=\"%[3]s\"}[5m])) > 0.05",
		"More than 5% of requests to {{ $labels.route }} fail.", "{{ $labels.job }} in {{ $labels.namespace }} answers {{ $value | humanizePercentage }} of requests to {{ $labels.route }} with a 5xx status."},
	{"HighLatency", "warning", "15m", "histogram_quantile(0.99, sum by (le, job, namespace, route) (rate(http_request_duration_seconds_bucket{job=\"%[1]s\",namespace=\"%[2]s\",route=\"%[3]s\"}[5m]))) > 0.5",
		"p99 latency of {{ $labels.route }} above 500ms.", "The 99th percentile latency of {{ $labels.route }} on {{ $labels.job }} is {{ $value | humanizeDuration }}."},
	{"QueueBacklog", "warning", "30m", "sum by (job, namespace, queue) (queue_messages_ready{job=\"%[1]s\",namespace=\"%[2]s\",queue=\"%[3]s\"}) > 1000",
		"Queue {{ $labels.queue }} is backing up.", "Queue {{ $labels.queue }} of {{ $labels.job }} holds {{ $value }} messages ready for more than 30 minutes."},
	{"PodCrashLooping", "critical", "15m", "max_over_time(kube_pod_container_status_waiting_reason{reason=\"CrashLoopBackOff\",namespace=\"%[2]s\",container=\"%[1]s-%[3]s\"}[5m]) >= 1",
		"Pod is crash looping.", "Pod {{ $labels.namespace }}/{{ $labels.pod }} ({{ $labels.container }}) is in waiting state (reason: \"CrashLoopBackOff\")."},
	{"MemoryNearLimit", "warning", "15m", "sum by (namespace, pod, container) (container_memory_working_set_bytes{namespace=\"%[2]s\",container=\"%[1]s-%[3]s\"})\n  /\nsum by (namespace, pod, container) (kube_pod_container_resource_limits{resource=\"memory\",namespace=\"%[2]s\",container=\"%[1]s-%[3]s\"}) > 0.9",
		"Container memory above 90% of its limit.", "Container {{ $labels.container }} of {{ $labels.pod }} uses {{ $value | humanizePercentage }} of its memory limit."},
	{"CertificateExpiring", "warning", "1h", "(certmanager_certificate_expiration_timestamp_seconds{namespace=\"%[2]s\",name=~\"%[1]s-.*\"} - time()) < 7 * 24 * 3600",
		"Certificate expires within a week.", "Certificate {{ $labels.name }} in {{ $labels.namespace }} expires in {{ $value | humanizeDuration }}."},
}

// routes are the label values the alerts are written for, one alert per
// (template, route).
var routes = [...]string{"checkout", "cart", "search", "payments", "catalog", "orders", "auth"}

// prometheusRule is a service team's PrometheusRule: a group of
// recording rules and a group of 16-40 alerts, each with its own
// expression over the team's job and namespace, a duration, labels and
// annotations (summaries and runbook URLs repeat across objects,
// descriptions are templates, expressions hold the job's name).
func prometheusRule(i int) map[string]any {
	svc := fmt.Sprintf("shop-%d", i%50)
	ns := Namespaces()[i%20]
	name := fmt.Sprintf("%s-%05d-rules", svc, i)
	job := fmt.Sprintf("%s-%d", svc, i)
	team := fmt.Sprintf("team-%d", i%20)
	records := make([]any, 4+i%7)
	for r := range records {
		route := routes[r%len(routes)]
		rec := map[string]any{
			"record": "job_route:http_requests:rate5m",
			"expr":   fmt.Sprintf("sum by (job, namespace, route, code) (rate(http_requests_total{job=%q,namespace=%q,route=%q}[5m]))", job, ns, route),
		}
		if r%2 == 1 {
			rec["labels"] = map[string]any{"route_class": []string{"read", "write"}[r%4/2]}
		}
		records[r] = rec
	}
	alerts := make([]any, 16+(i*7)%25)
	for a := range alerts {
		t := alertTemplates[a%len(alertTemplates)]
		route := routes[(a/len(alertTemplates)+i)%len(routes)]
		alert := "Shop" + t[0]
		alerts[a] = map[string]any{
			"alert": alert, "expr": fmt.Sprintf(t[3], job, ns, route), "for": t[2],
			"labels": map[string]any{"severity": t[1], "team": team, "service": svc},
			"annotations": map[string]any{
				"summary": t[4], "description": t[5],
				"runbook_url": "https://runbooks.example.com/shop/" + strings.ToLower(t[0]),
				"dashboard":   "https://grafana.example.com/d/" + svc + "/" + svc + "?var-namespace=" + ns,
			},
		}
		if t[1] == "critical" {
			alerts[a].(map[string]any)["keep_firing_for"] = "5m"
		}
	}
	groups := []any{
		map[string]any{"name": svc + ".rules", "interval": "30s", "rules": records},
		map[string]any{"name": svc + ".alerts", "rules": alerts, "labels": map[string]any{"tenant": team}},
	}
	created := i % 10000
	labels := map[string]any{
		"app.kubernetes.io/name": svc, "app.kubernetes.io/instance": svc + "-prod", "app.kubernetes.io/managed-by": "Helm",
		"helm.sh/chart": "shop-1.12." + strconv.Itoa(i%4), "prometheus": "k8s", "role": "alert-rules",
	}
	meta := map[string]any{
		"name": name, "namespace": ns, "labels": labels,
		"annotations": map[string]any{"meta.helm.sh/release-name": svc + "-prod", "meta.helm.sh/release-namespace": ns},
		"managedFields": []any{managedEntry("helm", "Update", "monitoring.coreos.com/v1", stamp(created), "", map[string]any{
			"f:metadata": map[string]any{
				"f:annotations": fieldSet(".", "f:meta.helm.sh/release-name", "f:meta.helm.sh/release-namespace"),
				"f:labels":      fieldSet(".", "f:app.kubernetes.io/instance", "f:app.kubernetes.io/managed-by", "f:app.kubernetes.io/name", "f:helm.sh/chart", "f:prometheus", "f:role"),
			},
			"f:spec": fieldSet(".", "f:groups"),
		})},
	}
	return map[string]any{"apiVersion": "monitoring.coreos.com/v1", "kind": "PrometheusRule", "metadata": meta, "spec": map[string]any{"groups": groups}}
}
