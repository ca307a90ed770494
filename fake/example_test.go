package fake_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake"
)

// The server speaks the real wire protocol: any HTTP client with the
// bearer token can use it.
func Example() {
	srv := fake.Start(fake.Options{})
	defer srv.Close()

	if err := srv.Add(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
	}); err != nil {
		fmt.Println(err)
		return
	}
	req, _ := http.NewRequest("GET", srv.URL()+"/api/v1/namespaces/default/pods?labelSelector=app%3Dweb", nil)
	req.Header.Set("Authorization", "Bearer "+srv.Token())
	resp, err := srv.Client().Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var list corev1.PodList
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Header.Get("Content-Type"), list.Kind, len(list.Items), list.Items[0].Name)
	// Output: application/json PodList 1 web-1
}

// labeler is the code under test in the next example: a "controller" that
// gives every ConfigMap in a namespace an owner label. Real controllers
// would use kubewire's client; this one uses net/http to stay short.
type labeler struct {
	base, token string
	hc          *http.Client
}

func (l labeler) do(method, path, contentType, body string) (*http.Response, error) {
	req, err := http.NewRequest(method, l.base+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+l.token)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return l.hc.Do(req)
}

// reconcile labels every unlabeled ConfigMap and reports how many it changed.
func (l labeler) reconcile(ns string) (int, error) {
	resp, err := l.do("GET", "/api/v1/namespaces/"+ns+"/configmaps?labelSelector=%21owner", "", "")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("list configmaps: %s (Retry-After %ss)", resp.Status, resp.Header.Get("Retry-After"))
	}
	var list corev1.ConfigMapList
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		return 0, err
	}
	for _, cm := range list.Items {
		r, err := l.do("PATCH", "/api/v1/namespaces/"+ns+"/configmaps/"+cm.Name, "application/merge-patch+json",
			`{"metadata":{"labels":{"owner":"labeler"},"resourceVersion":"`+cm.ResourceVersion+`"}}`)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
		if r.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("patch %s: %s", cm.Name, r.Status)
		}
	}
	return len(list.Items), nil
}

// A controller test built on the fake: seed state, run one reconcile,
// check the result, and check how the controller copes with a fault.
func Example_controllerTest() {
	srv := fake.Start(fake.Options{})
	defer srv.Close()
	_ = srv.Add(
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default"}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "default", Labels: map[string]string{"owner": "someone"}}},
	)
	ctrl := labeler{base: srv.URL(), token: srv.Token(), hc: srv.Client()}

	n, err := ctrl.reconcile("default")
	fmt.Println("labeled:", n, err)
	n, err = ctrl.reconcile("default")
	fmt.Println("second pass labeled:", n, err)

	// The API server is overloaded: the controller must report it.
	srv.Faults().FailNext(1, http.StatusTooManyRequests, 2*time.Second)
	_ = srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}})
	_, err = ctrl.reconcile("default")
	fmt.Println("under a 429:", err)
	// Output:
	// labeled: 1 <nil>
	// second pass labeled: 0 <nil>
	// under a 429: list configmaps: 429 Too Many Requests (Retry-After 2s)
}
