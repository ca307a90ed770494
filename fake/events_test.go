package fake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	"github.com/kubewire/kubewire/codec"
)

const (
	coreEvents  = "/api/v1/namespaces/default/events"
	eventsAPI   = "/apis/events.k8s.io/v1/namespaces/default/events"
	recorderEvt = `{"metadata":{"name":"pod-a.1"},"eventTime":"2026-01-01T00:00:00.000000Z","action":"Scheduled","reason":"Started",` +
		`"regarding":{"kind":"Pod","name":"pod-a","namespace":"default","apiVersion":"v1"},"note":"started the pod",` +
		`"reportingController":"example.com/ctrl","reportingInstance":"ctrl-1","type":"Normal"}`
)

// An event written through either Events API is one object, served by
// both with kube-apiserver's field conversion.
func TestEventsOneStoreBothAPIs(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", eventsAPI, recorderEvt)

	var core corev1.Event
	mustJSON(t, c.mustDo(http.StatusOK, "GET", coreEvents+"/pod-a.1", ""), &core)
	if core.APIVersion != "v1" || core.InvolvedObject.Name != "pod-a" || core.Message != "started the pod" ||
		core.ReportingController != "example.com/ctrl" || core.ReportingInstance != "ctrl-1" || core.Action != "Scheduled" {
		t.Fatalf("core/v1 view of an events.k8s.io event: %+v", core)
	}

	c.mustDo(http.StatusCreated, "POST", coreEvents, `{"metadata":{"name":"pod-b.1"},"involvedObject":{"kind":"Pod","name":"pod-b","namespace":"default"},`+
		`"reason":"Killing","message":"stopping","source":{"component":"kubelet","host":"node-1"},"count":3,"type":"Warning",`+
		`"firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:01:00Z"}`)
	var ev eventsv1.Event
	mustJSON(t, c.mustDo(http.StatusOK, "GET", eventsAPI+"/pod-b.1", ""), &ev)
	if ev.APIVersion != "events.k8s.io/v1" || ev.Regarding.Name != "pod-b" || ev.Note != "stopping" || ev.DeprecatedCount != 3 ||
		ev.DeprecatedSource.Host != "node-1" || ev.DeprecatedFirstTimestamp.IsZero() {
		t.Fatalf("events.k8s.io view of a core/v1 event: %+v", ev)
	}

	for _, path := range []string{coreEvents, eventsAPI} {
		var list struct {
			APIVersion string `json:"apiVersion"`
			Items      []struct {
				Metadata struct{ Name string } `json:"metadata"`
			} `json:"items"`
		}
		mustJSON(t, c.mustDo(http.StatusOK, "GET", path, ""), &list)
		if len(list.Items) != 2 {
			t.Fatalf("%s lists %d events, want both", path, len(list.Items))
		}
	}

	// A selector evaluates on the object as its API serves it.
	for _, q := range []string{coreEvents + "?fieldSelector=involvedObject.name%3Dpod-a", eventsAPI + "?fieldSelector=regarding.name%3Dpod-a",
		coreEvents + "?fieldSelector=source%3Dexample.com%2Fctrl"} {
		var list struct {
			Items []json.RawMessage `json:"items"`
		}
		mustJSON(t, c.mustDo(http.StatusOK, "GET", q, ""), &list)
		if len(list.Items) != 1 || !strings.Contains(string(list.Items[0]), `"pod-a.1"`) {
			t.Fatalf("%s: %d items, want pod-a.1", q, len(list.Items))
		}
	}

	// A merge patch through core/v1 of the events.k8s.io event, then
	// its deletion through events.k8s.io.
	b := c.mustPatch(http.StatusOK, coreEvents+"/pod-a.1", "application/merge-patch+json", `{"metadata":{"labels":{"seen":"yes"}}}`)
	if !strings.Contains(string(b), `"apiVersion":"v1"`) || !strings.Contains(string(b), `"message":"started the pod"`) {
		t.Fatalf("patch answer: %s", b)
	}
	mustJSON(t, c.mustDo(http.StatusOK, "GET", eventsAPI+"/pod-a.1", ""), &ev)
	if ev.Labels["seen"] != "yes" || ev.Note != "started the pod" {
		t.Fatalf("patched event through events.k8s.io: %+v", ev)
	}
	// events.k8s.io's update rules hold on an event written through core/v1.
	// Its error names the internal kind, core's Event.
	b = c.mustPatch(http.StatusUnprocessableEntity, eventsAPI+"/pod-b.1", "application/merge-patch+json", `{"note":"changed"}`)
	if !strings.Contains(string(b), `"message":"Event \"pod-b.1\" is invalid: message: Invalid value: \"changed\": field is immutable"`) {
		t.Fatalf("changing an event's note: %s", b)
	}
	c.mustDo(http.StatusOK, "DELETE", eventsAPI+"/pod-a.1", "")
	c.mustDo(http.StatusNotFound, "GET", coreEvents+"/pod-a.1", "")
}

// A core/v1 watch sees events written through events.k8s.io, converted,
// with the resource versions of the one store.
func TestEventsWatchAcrossAPIs(t *testing.T) {
	_, c := newTestServer(t, Options{})
	resp, err := c.hc.Do(c.request("GET", coreEvents+"?watch=true", "", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	dec, err := codec.NewWatchDecoder(resp.Header.Get("Content-Type"), resp.Body, codec.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var created eventsv1.Event
	mustJSON(t, c.mustDo(http.StatusCreated, "POST", eventsAPI, recorderEvt), &created)
	typ, err := dec.Next()
	if err != nil {
		t.Fatal(err)
	}
	var got corev1.Event
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if typ != "ADDED" || got.APIVersion != "v1" || got.Message != "started the pod" || got.ResourceVersion != created.ResourceVersion {
		t.Fatalf("watch event %s %+v, want ADDED core/v1 at resourceVersion %s", typ, got, created.ResourceVersion)
	}
}

func mustJSON(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}

// Events have no garbage collection policy: deleting one with
// propagationPolicy=Orphan or Foreground deletes it at once, through
// either API.
func TestEventsDeleteIgnoresPropagation(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", eventsAPI, recorderEvt)
	b := c.mustDo(http.StatusOK, "DELETE", eventsAPI+"/pod-a.1?propagationPolicy=Orphan", "")
	if !strings.Contains(string(b), `"kind":"Status"`) || !strings.Contains(string(b), `"status":"Success"`) {
		t.Fatalf("delete with Orphan: %s", b)
	}
	c.mustDo(http.StatusNotFound, "GET", coreEvents+"/pod-a.1", "")
	c.mustDo(http.StatusCreated, "POST", eventsAPI, recorderEvt)
	c.mustDo(http.StatusOK, "DELETE", coreEvents+"/pod-a.1?propagationPolicy=Foreground", "")
	c.mustDo(http.StatusNotFound, "GET", eventsAPI+"/pod-a.1", "")
}

// Tables of events.k8s.io/v1 Events are printed as core/v1's, from the
// one stored event.
func TestEventsTableThroughEventsAPI(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", eventsAPI, recorderEvt)
	_, b := c.do("GET", eventsAPI, "application/json;as=Table;v=v1;g=meta.k8s.io", "")
	var table struct {
		Columns []struct{ Name string } `json:"columnDefinitions"`
		Rows    []struct{ Cells []any } `json:"rows"`
	}
	mustJSON(t, b, &table)
	if len(table.Columns) < 7 || table.Columns[0].Name != "Last Seen" || len(table.Rows) != 1 {
		t.Fatalf("events.k8s.io Table: %s", b)
	}
	if cells := table.Rows[0].Cells; cells[3] != "pod/pod-a" || cells[6] != "started the pod" {
		t.Fatalf("cells %v", cells)
	}
}

// In protobuf, an event written through core/v1 is served through
// events.k8s.io/v1 as that API's message.
func TestEventsProtobufAcrossAPIs(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", coreEvents, `{"metadata":{"name":"old"},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"message":"m","count":2}`)
	resp, b := c.do("GET", eventsAPI+"/old", codec.MediaTypeProtobuf, "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var ev eventsv1.Event
	if err := codec.DecodeProtobuf(b, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Note != "m" || ev.DeprecatedCount != 2 || ev.Regarding.Name != "p" {
		t.Fatalf("protobuf events.k8s.io view: %+v", ev)
	}
}
