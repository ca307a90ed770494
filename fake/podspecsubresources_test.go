package fake

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestEphemeralContainers adds a debug container as kubectl debug does
// (a strategic merge patch of pods/ephemeralcontainers), then checks
// what kube-apiserver refuses: a duplicate name, a missing image, a
// port, and a change to or removal of an existing one; other changes
// the body carries are dropped.
func TestEphemeralContainers(t *testing.T) {
	_, c := newTestServer(t, Options{})
	ns := "/api/v1/namespaces/default/"
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"p","labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
	ec := ns + "pods/p/ephemeralcontainers"
	smp := "application/strategic-merge-patch+json"

	c.mustPatch(http.StatusOK, ec, smp, `{"spec":{"ephemeralContainers":[{"name":"debugger","image":"busybox","stdin":true,"tty":true,"targetContainerName":"c"}]}}`)
	var pod struct {
		Metadata struct {
			Labels        map[string]string
			ManagedFields []struct{ Manager, Subresource string }
		}
		Spec struct {
			Containers          []struct{ Name, Image string }
			EphemeralContainers []struct{ Name, Image, TargetContainerName, ImagePullPolicy string }
		}
	}
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", ec, ""), &pod); err != nil {
		t.Fatal(err)
	}
	if got := pod.Spec.EphemeralContainers; len(got) != 1 || got[0].Name != "debugger" || got[0].TargetContainerName != "c" || got[0].ImagePullPolicy == "" {
		t.Fatalf("ephemeral containers %+v, want debugger targeting c, defaulted", got)
	}
	subs := map[string]bool{}
	for _, m := range pod.Metadata.ManagedFields {
		subs[m.Subresource] = true
	}
	if !subs["ephemeralcontainers"] {
		t.Errorf("managed fields %+v record no write of the subresource", pod.Metadata.ManagedFields)
	}

	// Changes outside spec.ephemeralContainers are dropped, not refused.
	c.mustPatch(http.StatusOK, ec, smp, `{"metadata":{"labels":{"a":"changed"}},"spec":{"containers":[{"name":"c","image":"other"}]}}`)
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", ns+"pods/p", ""), &pod); err != nil {
		t.Fatal(err)
	}
	if pod.Metadata.Labels["a"] != "b" || pod.Spec.Containers[0].Image != "i" {
		t.Errorf("labels %v, image %q: a pods/ephemeralcontainers write changed them", pod.Metadata.Labels, pod.Spec.Containers[0].Image)
	}

	refused := []struct {
		name, body, field, message string
	}{
		{"duplicate name", `{"spec":{"ephemeralContainers":[{"name":"c","image":"busybox"}]}}`, "spec.ephemeralContainers[*].name", `Duplicate value: "c"`},
		{"no image", `{"spec":{"ephemeralContainers":[{"name":"e2"}]}}`, "spec.ephemeralContainers[*].image", "Required value"},
		{"a port", `{"spec":{"ephemeralContainers":[{"name":"e3","image":"x","ports":[{"containerPort":80}]}]}}`, "spec.ephemeralContainers[*].ports", "Forbidden: cannot be set for an Ephemeral Container"},
		{"changed", `{"spec":{"ephemeralContainers":[{"name":"debugger","image":"other"}]}}`, "spec.ephemeralContainers", `Forbidden: existing ephemeral containers "debugger" may not be changed`},
		{"removed", `{"spec":{"$setElementOrder/ephemeralContainers":[],"ephemeralContainers":[{"name":"debugger","$patch":"delete"}]}}`, "spec.ephemeralContainers", `Forbidden: existing ephemeral containers "debugger" may not be removed`},
	}
	for _, r := range refused {
		t.Run(r.name, func(t *testing.T) {
			c.t = t
			st := statusOf(t, c.mustPatch(http.StatusUnprocessableEntity, ec, smp, r.body))
			if !hasCause(st, r.field, r.message) {
				t.Errorf("causes %+v, want %s: %s", st.Details.Causes, r.field, r.message)
			}
		})
	}
	c.t = t

	// A PUT of the whole Pod is the other way in; so are its methods' limits.
	body := c.mustDo(http.StatusOK, "GET", ec, "")
	body = []byte(strings.Replace(string(body), `"ephemeralContainers":[`, `"ephemeralContainers":[{"name":"second","image":"busybox"},`, 1))
	c.mustDo(http.StatusOK, "PUT", ec, string(body))
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", ec, ""), &pod); err != nil {
		t.Fatal(err)
	}
	if len(pod.Spec.EphemeralContainers) != 2 {
		t.Errorf("after PUT: %+v, want two ephemeral containers", pod.Spec.EphemeralContainers)
	}
	c.mustDo(http.StatusMethodNotAllowed, "POST", ec, `{}`)
	c.mustDo(http.StatusMethodNotAllowed, "DELETE", ec, "")
	c.mustDo(http.StatusNotFound, "GET", ns+"pods/missing/ephemeralcontainers", "")
	c.mustDo(http.StatusNotFound, "GET", ns+"configmaps/p/ephemeralcontainers", "")
}

// TestPodResize changes a container's cpu in place through pods/resize
// and checks kube-apiserver's refusals: another resource, a removed
// request, a change of QoS class, a renamed container.
func TestPodResize(t *testing.T) {
	_, c := newTestServer(t, Options{})
	ns := "/api/v1/namespaces/default/"
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"100m","memory":"64Mi"}}}]}}`)
	rs := ns + "pods/p/resize"
	smp := "application/strategic-merge-patch+json"

	c.mustPatch(http.StatusOK, rs, smp, `{"spec":{"containers":[{"name":"c","image":"dropped","resources":{"requests":{"cpu":"200m"}}}]}}`)
	var pod struct {
		Spec struct {
			Containers []struct {
				Image     string
				Resources struct{ Requests map[string]string }
			}
		}
	}
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", ns+"pods/p", ""), &pod); err != nil {
		t.Fatal(err)
	}
	if got := pod.Spec.Containers[0]; got.Resources.Requests["cpu"] != "200m" || got.Image != "i" {
		t.Fatalf("after resize: %+v, want cpu 200m and image i", got)
	}

	refused := []struct {
		name, body, field, message string
	}{
		{"other resource", `{"spec":{"containers":[{"name":"c","resources":{"requests":{"ephemeral-storage":"1Gi"}}}]}}`, "spec", "Forbidden: only cpu and memory resources are mutable"},
		{"request removed", `{"spec":{"containers":[{"name":"c","resources":{"requests":{"memory":null}}}]}}`, "spec.containers[0].resources.requests", "Forbidden: resource requests cannot be removed"},
		{"qos changed", `{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"200m","memory":"64Mi"}}}]}}`, "spec", "Pod QOS Class may not change as a result of resizing"},
		{"renamed", `{"spec":{"containers":[{"name":"c","$patch":"delete"},{"name":"d","image":"i"}]}}`, "spec.containers[0].name", "Forbidden: containers may not be renamed or reordered on resize"},
	}
	for _, r := range refused {
		t.Run(r.name, func(t *testing.T) {
			c.t = t
			st := statusOf(t, c.mustPatch(http.StatusUnprocessableEntity, rs, smp, r.body))
			if !hasCause(st, r.field, r.message) {
				t.Errorf("causes %+v, want %s: %s", st.Details.Causes, r.field, r.message)
			}
		})
	}
}

type testStatus struct {
	Details struct {
		Causes []struct{ Field, Message string }
	}
}

func statusOf(t *testing.T, b []byte) testStatus {
	t.Helper()
	var st testStatus
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return st
}

// hasCause reports whether st has a cause at field whose message
// contains message; [*] in field matches any index (a strategic merge
// patch places the elements it adds).
func hasCause(st testStatus, field, message string) bool {
	pattern := "^" + strings.ReplaceAll(regexp.QuoteMeta(field), `\[\*\]`, `\[[0-9]+\]`) + "$"
	re := regexp.MustCompile(pattern)
	for _, c := range st.Details.Causes {
		if re.MatchString(c.Field) && strings.Contains(c.Message, message) {
			return true
		}
	}
	return false
}
