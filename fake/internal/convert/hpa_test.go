package convert_test

import (
	"encoding/json"
	"testing"

	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	autoscalingv2 "github.com/kubewire/kubewire/api/autoscaling/v2"
	"github.com/kubewire/kubewire/fake/internal/convert"
)

// An autoscaling/v2 autoscaler of every metric type, with a behavior,
// status metrics and conditions, comes back unchanged from
// autoscaling/v1, which keeps all but its CPU target in annotations.
func TestAutoscalerRoundTrip(t *testing.T) {
	const v2JSON = `{"kind":"HorizontalPodAutoscaler","apiVersion":"autoscaling/v2","metadata":{"name":"h","namespace":"ns","annotations":{"team":"a"}},
"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d","apiVersion":"apps/v1"},"minReplicas":2,"maxReplicas":9,"metrics":[
{"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"100"}}},
{"type":"Object","object":{"describedObject":{"kind":"Ingress","name":"i","apiVersion":"networking.k8s.io/v1"},"target":{"type":"Value","value":"5"},"metric":{"name":"hits"}}},
{"type":"External","external":{"metric":{"name":"queue","selector":{"matchLabels":{"q":"a"}}},"target":{"type":"AverageValue","averageValue":"3"}}},
{"type":"ContainerResource","containerResource":{"name":"memory","target":{"type":"AverageValue","averageValue":"1Gi"},"container":"c"}},
{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}}],
"behavior":{"scaleUp":{"stabilizationWindowSeconds":0,"selectPolicy":"Max","policies":[{"type":"Pods","value":4,"periodSeconds":15}]}}},
"status":{"currentReplicas":2,"desiredReplicas":3,"currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageValue":"100m","averageUtilization":40}}}],
"conditions":[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-02T03:04:05Z","reason":"R"}]}}`
	var in autoscalingv2.HorizontalPodAutoscaler
	if err := json.Unmarshal([]byte(v2JSON), &in); err != nil {
		t.Fatal(err)
	}
	out, err := convert.To(&in, "autoscaling/v1")
	if err != nil {
		t.Fatal(err)
	}
	v1 := out.(*autoscalingv1.HorizontalPodAutoscaler)
	if p := v1.Spec.TargetCPUUtilizationPercentage; p == nil || *p != 60 {
		t.Fatalf("v1 CPU target %v", p)
	}
	if p := v1.Status.CurrentCPUUtilizationPercentage; p == nil || *p != 40 {
		t.Fatalf("v1 current CPU %v", p)
	}
	for _, k := range []string{"metrics", "current-metrics", "conditions", "behavior"} {
		if v1.Annotations["autoscaling.alpha.kubernetes.io/"+k] == "" {
			t.Errorf("no %s annotation: %v", k, v1.Annotations)
		}
	}
	back, err := convert.To(v1, "autoscaling/v2")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(&in)
	got, _ := json.Marshal(back)
	if string(got) != string(want) {
		t.Fatalf("round trip:\n got %s\nwant %s", got, want)
	}
	if in.Annotations["autoscaling.alpha.kubernetes.io/metrics"] != "" {
		t.Fatal("the conversion changed its input's annotations")
	}
}
