package fake

import (
	"encoding/json"
	"net/http"
	"testing"
)

func TestDeleteAnswers(t *testing.T) {
	_, c := newTestServer(t, Options{})
	deps := "/apis/apps/v1/namespaces/default/deployments"
	dep := `{"metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`
	var created struct{ Metadata struct{ UID string } }
	if err := json.Unmarshal(c.mustDo(http.StatusCreated, "POST", deps, dep), &created); err != nil {
		t.Fatal(err)
	}
	got := string(c.mustDo(http.StatusOK, "DELETE", deps+"/d", ""))
	if want := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"d","group":"apps","kind":"deployments","uid":"` + created.Metadata.UID + `"}}` + "\n"; got != want {
		t.Errorf("deployment delete:\n got %s\nwant %s", got, want)
	}

	pods := "/api/v1/namespaces/default/pods"
	c.mustDo(http.StatusCreated, "POST", pods, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
	var pod struct {
		Kind     string
		Metadata struct{ Name string }
	}
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "DELETE", pods+"/p", ""), &pod); err != nil || pod.Kind != "Pod" || pod.Metadata.Name != "p" {
		t.Errorf("pod delete answered %+v, %v", pod, err)
	}

	cms := "/api/v1/namespaces/default/configmaps"
	c.mustDo(http.StatusCreated, "POST", cms, `{"metadata":{"name":"f","finalizers":["example.com/x"]}}`)
	var cm struct {
		Kind     string
		Metadata struct{ DeletionTimestamp string }
	}
	if err := json.Unmarshal(c.mustDo(http.StatusAccepted, "DELETE", cms+"/f", `{"orphanDependents":false}`), &cm); err != nil || cm.Kind != "ConfigMap" || cm.Metadata.DeletionTimestamp == "" {
		t.Errorf("deferred delete answered %+v, %v", cm, err)
	}
	c.mustDo(http.StatusOK, "DELETE", cms+"/f", "") // still held: 200 with the object
}
