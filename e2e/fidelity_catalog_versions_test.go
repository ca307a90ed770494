package e2e

// versionsScenario: built-in kinds served under several group/versions
// and stored once. An Event written through either Events API is read,
// listed, selected, patched and deleted through the other; an
// autoscaling/v2 HorizontalPodAutoscaler is served at autoscaling/v1
// with what v1 has no field for in annotations, and written back
// through v1 without losing it.
func versionsScenario(c *catalog) {
	c.begin("versions", "fid-versions")
	core := "/api/v1/namespaces/${ns}/events"
	events := "/apis/events.k8s.io/v1/namespaces/${ns}/events"
	c.post("create events.k8s.io event", events, `{"metadata":{"name":"rec"},"eventTime":"2026-01-01T00:00:00.000000Z","action":"Checking","reason":"Checked",`+
		`"regarding":{"kind":"Pod","name":"web-0","namespace":"${ns}","apiVersion":"v1"},"related":{"kind":"Node","name":"n1"},"note":"checked",`+
		`"reportingController":"example.com/op","reportingInstance":"op-0","type":"Normal","series":{"count":2,"lastObservedTime":"2026-01-01T00:01:00.000000Z"}}`)
	c.post("create core event", core, `{"metadata":{"name":"old"},"involvedObject":{"kind":"Pod","name":"web-1","namespace":"${ns}"},"reason":"Pulled",`+
		`"message":"pulled","source":{"component":"kubelet","host":"n1"},"count":3,"type":"Warning","firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:02:00Z"}`)
	c.get("events.k8s.io event through core", core+"/rec")
	c.get("core event through events.k8s.io", events+"/old")
	c.get("list core", core)
	c.get("list events.k8s.io", events)
	c.get("core selector on involvedObject", core+"?fieldSelector=involvedObject.name%3Dweb-0")
	c.get("events.k8s.io selector on regarding", events+"?fieldSelector=regarding.name%3Dweb-1")
	c.get("core selector on source", core+"?fieldSelector=source%3Dexample.com%2Fop")
	c.get("events.k8s.io selector on reportingController", events+"?fieldSelector=reportingController%3Dexample.com%2Fop")
	c.get("events.k8s.io table", events).accept("application/json;as=Table;v=v1;g=meta.k8s.io")
	c.patch("label through core", core+"/rec", ctMerge, `{"metadata":{"labels":{"seen":"yes"}}}`)
	c.get("labelled through events.k8s.io", events+"/rec")
	c.patch("change note through events.k8s.io", events+"/old", ctMerge, `{"note":"changed"}`)
	c.patch("change message through core", core+"/rec", ctMerge, `{"message":"changed"}`)
	c.apply("apply through events.k8s.io", events+"/rec?fieldManager=fid", `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"rec","labels":{"by":"apply"}}}`)
	c.get("applied through core", core+"/rec")
	c.del("delete through events.k8s.io with orphan", events+"/old?propagationPolicy=Orphan", "")
	c.get("deleted through core", core+"/old")

	v2 := "/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers"
	v1 := "/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers"
	c.post("create v2 autoscaler", v2, `{"metadata":{"name":"web","annotations":{"team":"shop"}},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":2,"maxReplicas":9,`+
		`"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}},`+
		`{"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"100"}}},`+
		`{"type":"External","external":{"metric":{"name":"queue","selector":{"matchLabels":{"q":"jobs"}}},"target":{"type":"Value","value":"30"}}}],`+
		`"behavior":{"scaleDown":{"stabilizationWindowSeconds":120,"policies":[{"type":"Pods","value":1,"periodSeconds":60}]}}}}`)
	c.get("v2 autoscaler through v1", v1+"/web").save("rvWeb", "metadata.resourceVersion")
	c.get("list through v1", v1)
	c.put("update through v1", v1+"/web", `{"metadata":{"name":"web","resourceVersion":"${rvWeb}","annotations":{"team":"shop",`+
		`"autoscaling.alpha.kubernetes.io/metrics":"[{\"type\":\"Pods\",\"pods\":{\"metricName\":\"qps\",\"targetAverageValue\":\"200\"}}]"}},`+
		`"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":3,"maxReplicas":9,"targetCPUUtilizationPercentage":70}}`)
	c.get("updated through v2", v2+"/web")
	c.post("create v1 autoscaler", v1, `{"metadata":{"name":"plain"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"api"},"maxReplicas":4}}`)
	c.get("v1 autoscaler through v2", v2+"/plain")
	c.patch("patch through v1", v1+"/plain", ctMerge, `{"spec":{"targetCPUUtilizationPercentage":50}}`)
	c.get("patched through v2", v2+"/plain")
	c.post("v1 autoscaler with a bad metric annotation", v1, `{"metadata":{"name":"bad","annotations":{"autoscaling.alpha.kubernetes.io/metrics":"[{\"type\":\"Pods\",\"pods\":{\"metricName\":\"\"}}]"}},`+
		`"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"api"},"maxReplicas":4}}`)
	c.del("delete through v1", v1+"/web", "")
	c.get("deleted through v2", v2+"/web")
}
