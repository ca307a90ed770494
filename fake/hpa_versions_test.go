package fake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	autoscalingv2 "github.com/kubewire/kubewire/api/autoscaling/v2"
)

const (
	hpaV1 = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers"
	hpaV2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers"
)

// An autoscaling/v2 autoscaler read and written back through
// autoscaling/v1 keeps what v1 has no field for, in its annotations.
func TestAutoscalerAcrossVersions(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", hpaV2, `{"metadata":{"name":"web"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":9,`+
		`"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}},`+
		`{"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"100"}}}],`+
		`"behavior":{"scaleDown":{"stabilizationWindowSeconds":120}}}}`)

	var v1 autoscalingv1.HorizontalPodAutoscaler
	mustJSON(t, c.mustDo(http.StatusOK, "GET", hpaV1+"/web", ""), &v1)
	if p := v1.Spec.TargetCPUUtilizationPercentage; p == nil || *p != 60 || *v1.Spec.MinReplicas != 1 {
		t.Fatalf("v1 spec %+v", v1.Spec)
	}
	if m := v1.Annotations["autoscaling.alpha.kubernetes.io/metrics"]; m != `[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"100"}}]` {
		t.Fatalf("metrics annotation %q", m)
	}
	if b := v1.Annotations["autoscaling.alpha.kubernetes.io/behavior"]; !strings.Contains(b, `"ScaleDown":{"StabilizationWindowSeconds":120,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]`) {
		t.Fatalf("behavior annotation %q", b)
	}

	// Written back through v1 with another CPU target: v2 keeps the
	// other metric and the behavior.
	v1.Spec.TargetCPUUtilizationPercentage = new(int32)
	*v1.Spec.TargetCPUUtilizationPercentage = 70
	body, _ := json.Marshal(&v1)
	c.mustDo(http.StatusOK, "PUT", hpaV1+"/web", string(body))
	var v2 autoscalingv2.HorizontalPodAutoscaler
	mustJSON(t, c.mustDo(http.StatusOK, "GET", hpaV2+"/web", ""), &v2)
	if len(v2.Spec.Metrics) != 2 || v2.Spec.Metrics[0].Pods == nil || *v2.Spec.Metrics[1].Resource.Target.AverageUtilization != 70 ||
		v2.Spec.Behavior == nil || *v2.Spec.Behavior.ScaleDown.StabilizationWindowSeconds != 120 || len(v2.Annotations) != 0 {
		t.Fatalf("v2 after a v1 update: %+v", v2)
	}
	// Field ownership: the v2 entry lost the metrics the v1 write changed.
	for _, e := range v2.ManagedFields {
		if e.APIVersion == "autoscaling/v2" && strings.Contains(string(e.FieldsV1.Raw), `"f:metrics"`) {
			t.Fatalf("v2 entry still owns the metrics: %s", e.FieldsV1.Raw)
		}
	}

	// A v1 autoscaler without a CPU target gets kube-apiserver's 80%,
	// owned by its writer.
	b := c.mustDo(http.StatusCreated, "POST", hpaV1, `{"metadata":{"name":"plain"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"api"},"maxReplicas":4}}`)
	if !strings.Contains(string(b), `"targetCPUUtilizationPercentage":80`) || !strings.Contains(string(b), `"f:targetCPUUtilizationPercentage":{}`) {
		t.Fatalf("v1 create: %s", b)
	}
	// A metric kept in the annotation is validated as kube-apiserver
	// validates it, in v2 form.
	resp, b := c.do("POST", hpaV1, "", `{"metadata":{"name":"bad","annotations":{"autoscaling.alpha.kubernetes.io/metrics":"[{\"type\":\"Pods\",\"pods\":{\"metricName\":\"\"}}]"}},`+
		`"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"api"},"maxReplicas":4}}`)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(b), "spec.metrics[0].pods.metric.name") {
		t.Fatalf("bad annotation metric: %d %s", resp.StatusCode, b)
	}
}

// A write through core/v1 drops the field ownership recorded through
// events.k8s.io/v1, which kube-apiserver cannot convert across groups.
func TestEventsOwnershipAcrossAPIs(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", eventsAPI+"?fieldManager=recorder", recorderEvt)
	b := c.mustPatch(http.StatusOK, coreEvents+"/pod-a.1?fieldManager=labeller", "application/merge-patch+json", `{"metadata":{"labels":{"a":"b"}}}`)
	if strings.Contains(string(b), `"manager":"recorder"`) || !strings.Contains(string(b), `"manager":"labeller"`) {
		t.Fatalf("managed fields after a core/v1 patch: %s", b)
	}
}
